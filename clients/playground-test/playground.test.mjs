// The GraphQL playground in headless Chromium with the network cut off:
// every host but the loopback resolves to nothing and every proxied
// request goes to a closed port, so the page works only if everything it
// needs comes from the server. It runs against a real `verdict serve`.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { chromium } from 'playwright-core';

const repoRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const adminKey = 'playground-bootstrap-key-0123456789abcdef';
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

let dir;
let server;
let origin;
let browser;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-playground-'));
  const bin = join(dir, 'verdict');
  await promisify(execFile)('go', ['build', '-o', bin, './cmd/verdict'], { cwd: repoRoot, maxBuffer: 16 << 20 });
  server = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--database-url', `sqlite://${join(dir, 'verdict.db')}`, '--authz-timeout', '1m'], {
    env: { ...process.env, VERDICT_BOOTSTRAP_KEY: adminKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  origin = await listening(server);
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--proxy-server=127.0.0.1:9',
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    ],
  });
});

after(async () => {
  await browser?.close();
  if (server) {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
});

// open opens the playground at path in a fresh browser tab, failing the
// test on any request to another origin than the server's.
async function open(t, path, init) {
  const context = await browser.newContext();
  t.after(() => context.close());
  if (init) {
    await context.addInitScript(init);
  }
  const page = await context.newPage();
  const elsewhere = [];
  page.on('request', (req) => {
    if (!req.url().startsWith(origin + '/') && !req.url().startsWith('data:')) {
      elsewhere.push(req.url());
    }
  });
  t.after(() => assert.deepEqual(elsewhere, [], 'the page asked other hosts than the server'));
  const schema = introspection(page);
  await page.goto(origin + path);
  await page.waitForSelector('.graphiql-container');
  return { page, schema };
}

// introspection resolves with the status of the page's next schema
// request, or of the next that answers status when it is given.
async function introspection(page, status) {
  const res = await page.waitForResponse(
    (r) =>
      r.url() === origin + '/graphql' &&
      (r.request().postData() ?? '').includes('__schema') &&
      (status === undefined || r.status() === status),
  );
  return res.status();
}

test('with ?key= the playground fetches the schema, forgets the key from the address and runs a query', async (t) => {
  const query = '{ viewer { role organization { name } } }';
  const { page, schema } = await open(t, `/playground?key=${adminKey}&query=${encodeURIComponent(query)}`);
  assert.equal(await schema, 200);
  assert.ok(!page.url().includes(adminKey), `the address still holds the key: ${page.url()}`);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('verdict.apiKey')), adminKey);

  const answered = page.waitForResponse((r) => r.url() === origin + '/graphql' && (r.request().postData() ?? '').includes('viewer'));
  await page.click('.graphiql-execute-button');
  assert.equal((await answered).status(), 200);
  await page.waitForFunction(() => document.querySelector('.graphiql-response')?.innerText.includes('"role": "ADMIN"'));
});

test('the key stored by the console is used at once', async (t) => {
  const { schema } = await open(t, '/playground', `sessionStorage.setItem('verdict.apiKey', ${JSON.stringify(adminKey)})`);
  assert.equal(await schema, 200);
});

test('without a key the schema is refused, and fetched again once the key is typed', async (t) => {
  const { page, schema } = await open(t, '/playground');
  assert.equal(await schema, 401);

  const again = introspection(page, 200);
  // The headers editor is open when there is no key: type it there.
  await page.evaluate((key) => {
    const editor = document.querySelector('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror');
    editor.CodeMirror.setValue(JSON.stringify({ 'x-api-key': key }));
  }, adminKey);
  assert.equal(await again, 200);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('verdict.apiKey')), adminKey);
});

// listening resolves with the address serve prints once it accepts
// connections, and rejects when it exits first.
function listening(proc) {
  return new Promise((resolveURL, reject) => {
    let out = '';
    let errors = '';
    proc.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /Verdict listening on (\S+)/.exec(out);
      if (m) {
        resolveURL(m[1]);
      }
    });
    proc.once('exit', (code) => reject(new Error(`verdict serve exited with ${code}:\n${out}${errors}`)));
  });
}
