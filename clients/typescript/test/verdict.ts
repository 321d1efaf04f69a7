// A real Verdict for the end-to-end tests: the binary built from this
// repository, serving a fresh SQLite database on a free port.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

// This file runs from build/test/; the repository root is four levels up.
const repoRoot = resolve(fileURLToPath(import.meta.url), '../../../../..');

/** The admin key the server bootstraps its empty database with. */
export const adminKey = 'e2e-bootstrap-key-0123456789abcdefghij';

export interface Verdict {
  /** Where the server listens, such as http://127.0.0.1:41234. */
  url: string;
  stop(): Promise<void>;
}

export async function startVerdict(): Promise<Verdict> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-e2e-'));
  const bin = join(dir, 'verdict');
  await run('go', ['build', '-o', bin, './cmd/verdict'], { cwd: repoRoot, maxBuffer: 16 << 20 });
  const dbURL = `sqlite://${join(dir, 'verdict.db')}`;
  const server = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--database-url', dbURL, '--rate-limit', '0', '--authz-timeout', '1m'], {
    env: { ...process.env, VERDICT_BOOTSTRAP_KEY: adminKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let url: string;
  try {
    url = await listening(server);
  } catch (err) {
    server.kill();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    async stop() {
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

// listening resolves with the address serve prints once it accepts
// connections, and rejects when it exits first.
function listening(server: ChildProcess): Promise<string> {
  return new Promise((resolveURL, reject) => {
    let out = '';
    let errors = '';
    server.stderr!.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Verdict listening on (\S+)/.exec(out);
      if (m) {
        resolveURL(m[1]!);
      }
    });
    server.once('exit', (code) => reject(new Error(`verdict serve exited with ${code}:\n${out}${errors}`)));
  });
}
