// The first screen's JavaScript budget: the scripts dist/index.html loads
// (its entry and the chunks it preloads), gzip-compressed as the server
// sends them, must stay within 350 KB. Screens behind lazy imports (the
// editor, the comparison) are not part of it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, constants } from 'node:zlib';

const BUDGET = 350 * 1024;
const dist = join(import.meta.dirname, '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/console\/([^"]+\.js)"/g)].map((m) => m[1]);
let total = 0;
for (const f of files) {
  const size = gzipSync(readFileSync(join(dist, f)), { level: constants.Z_BEST_COMPRESSION }).length;
  total += size;
  console.log(`  ${f}: ${(size / 1024).toFixed(1)} KB gzip`);
}
console.log(`first screen: ${(total / 1024).toFixed(1)} KB of gzip-compressed JavaScript (budget ${BUDGET / 1024} KB)`);
if (files.length === 0 || total > BUDGET) {
  console.error(files.length === 0 ? 'index.html loads no script' : 'over budget: lazy-load more of the first screen');
  process.exit(1);
}
