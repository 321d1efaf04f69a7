// Starts a real verdict serve for the browser test: the binary built from
// this repository, SQLite in a temporary directory, a free port, and a
// bootstrap key of the test's choosing.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..', '..');

export async function startServer(bootstrapKey) {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-console-'));
  const bin = join(dir, 'verdict');
  execFileSync('go', ['build', '-o', bin, './cmd/verdict'], { cwd: repo, stdio: 'inherit' });
  let running = await serve(bin, dir, bootstrapKey, '127.0.0.1:0');
  return {
    url: running.url,
    stdout: () => running.stdout(),
    /** `verdict admin` on the server's database, as the operator (another organization, say); its JSON answer. */
    admin: (...args) =>
      JSON.parse(execFileSync(bin, ['admin', ...args, '--json', '--database-url', `sqlite://${join(dir, 'verdict.db')}`], { encoding: 'utf8' })),
    /** Stops the server and starts it again on the same address and database, once `whileDown` has run. */
    async restart(whileDown = async () => {}) {
      await running.stop();
      await whileDown();
      running = await serve(bin, dir, bootstrapKey, new URL(running.url).host);
    },
    async stop() {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function serve(bin, dir, bootstrapKey, addr) {
  const proc = spawn(bin, ['serve', '--addr', addr, '--database-url', `sqlite://${join(dir, 'verdict.db')}`, '--rate-limit', '0', '--authz-timeout', '1m'], {
    env: { ...process.env, VERDICT_BOOTSTRAP_KEY: bootstrapKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((ok) => proc.on('exit', ok));
  const url = await new Promise((ok, fail) => {
    proc.stdout.on('data', (d) => {
      stdout += d;
      const m = /Verdict listening on (http:\/\/\S+)\n/.exec(stdout);
      if (m) ok(m[1]);
    });
    proc.on('exit', (code) => fail(new Error(`verdict serve exited with ${code}\n${stdout}\n${stderr}`)));
  });
  return {
    url,
    stdout: () => stdout,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** A REST call with a key, for the test's own setup (keys to sign in with). */
export async function rest(url, key, method, path, body) {
  const res = await fetch(new URL(path, url), {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
