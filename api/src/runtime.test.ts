import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningSockets } from './test/listening-sockets.js';

const apiDir = fileURLToPath(new URL('..', import.meta.url));
const mainJs = path.join(apiDir, 'dist/main.js');
let dataDir: string;

beforeAll(() => {
  // What `npm start` does first: build the API and the embedded database's template if stale.
  const build = spawnSync(process.execPath, ['scripts/build.mjs', 'api'], {
    cwd: path.dirname(apiDir),
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(build.stdout + build.stderr);
  dataDir = mkdtempSync(path.join(tmpdir(), 'pal-runtime-'));
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function run(env: Record<string, string>) {
  return spawnSync('node', [mainJs], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
}

/**
 * A port nothing listens on, below the range the system hands out for outgoing connections and
 * `listen(0)` (32768 up here), where a random pick once collided with another test's socket.
 */
async function freePort(): Promise<string> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 22_000);
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return String(port);
  }
}

/**
 * Starts `node dist/main.js` on the embedded database in `library` and waits for /healthz. Its
 * stdout and stderr come through one pipe, in the order a terminal would show them.
 */
async function startServer(library: string, overrides: Record<string, string> = {}) {
  const port = await freePort();
  const env = {
    DATA_DIR: library,
    PORT: port,
    ADMIN_EMAIL: 'boss@example.com',
    ADMIN_PASSWORD: 'boss-password-1',
    LOG_LEVEL: 'warn',
    ...overrides,
  };
  const child = spawn('sh', ['-c', 'exec node "$0" 2>&1', mainJs], {
    env: { ...process.env, ...env, DATABASE_URL: '' },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  let healthy = false;
  while (!healthy && child.exitCode === null && Date.now() < deadline) {
    healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!healthy) await new Promise((r) => setTimeout(r, 250));
  }
  expect(healthy, out).toBe(true);
  const signIn = (password = env.ADMIN_PASSWORD) =>
    fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'boss@example.com',
        password,
        deviceData: { deviceId: 'runtime-test-device' },
      }),
    }).then((r) => r.json());
  return { child, port: Number(port), exited, signIn, output: () => out };
}

const databaseSocket = (library: string) => path.join(library, 'pgdata-socket', '.s.PGSQL.5432');

describe('runtime contract', () => {
  it.each([
    [{ PORT: 'eighty' }, /^Cannot start: Invalid PORT: PORT must be a whole number/],
    [{ MAX_DEVICES: '0' }, /^Cannot start: Invalid MAX_DEVICES/],
    [{ DATABASE_URL: 'mysql://x' }, /^Cannot start: Invalid DATABASE_URL: DATABASE_URL must be a postgres/],
    [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' }, /^Cannot start: Cannot connect to DATABASE_URL/],
  ])('refuses a bad environment %o with a one-line message', (env, message) => {
    const result = run({ DATA_DIR: dataDir, ...env });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('starts, answers /healthz, creates the first admin once and stops cleanly on SIGTERM', async () => {
    // A DATA_DIR that does not exist yet: the server creates it.
    const fresh = path.join(dataDir, 'library');
    const server = await startServer(fresh);
    const pid = server.child.pid ?? 0;
    // The embedded database was copied from the build's template, not made by initdb (which
    // leaves about 900 MiB resident): the server settles at about 340-370 MiB. Right at /healthz
    // it can still hold a passing peak (780 MiB seen once in four starts since the job queue
    // starts beside the first requests), so it is read until it settles.
    const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
    await expect.poll(rssMiB, { timeout: 10_000, interval: 250 }).toBeLessThan(400);
    expect(existsSync(path.join(fresh, 'pgdata', 'PG_VERSION'))).toBe(true);
    // Only its owner may read it: the database files, the secret and the audio are in there.
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    // The embedded database takes no password, so it has no TCP port: only its owner can enter
    // the folder of its socket.
    expect(listeningSockets(pid)).toEqual({ tcpPorts: [server.port], unixPaths: [databaseSocket(fresh)] });
    expect(statSync(path.dirname(databaseSocket(fresh))).mode & 0o777).toBe(0o700);
    expect(await server.signIn()).toMatchObject({ requiresDeviceApproval: true });
    const stopping = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // Promptly, not at main's 10 s deadline.
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(server.output()).not.toContain('boss-password-1');
    expect(existsSync(databaseSocket(fresh))).toBe(false);
  }, 90_000);

  it('starts again after a kill -9 left the database socket behind', async () => {
    // The library the test above created (a new one would do, only slower).
    const library = path.join(dataDir, 'library');
    const killed = await startServer(library);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(statSync(databaseSocket(library)).isSocket()).toBe(true);
    const server = await startServer(library);
    expect(await server.signIn()).toMatchObject({ requiresDeviceApproval: true });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(databaseSocket(library))).toBe(false);
  }, 150_000);

  it('shows a generated password once, boxed below the address, after every log line', async () => {
    const server = await startServer(path.join(dataDir, 'generated'), { ADMIN_PASSWORD: '', LOG_LEVEL: 'info' });
    const deadline = Date.now() + 10_000;
    while (!server.output().includes('└') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const lines = server.output().trimEnd().split('\n');
    const password = /shown only this once\): (\S+)/.exec(server.output())?.[1] ?? '';
    expect(lines.slice(-4)).toEqual([
      `Protected audio library is running at http://127.0.0.1:${server.port}`,
      expect.stringMatching(/^┌─+┐$/),
      `│ First administrator boss@example.com, password (generated, shown only this once): ${password} │`,
      expect.stringMatching(/^└─+┘$/),
    ]);
    // Above them, the log: JSON lines an operator's tools read, the password in none of them.
    const log = lines.slice(0, -4).map((line) => JSON.parse(line) as { msg: string });
    expect(log.map((entry) => entry.msg)).toEqual(['db.embedded', 'admin.created', 'server.listening']);
    expect(lines.slice(0, -4).join('\n')).not.toContain(password);
    expect(await server.signIn(password)).toMatchObject({ requiresDeviceApproval: true });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // A second start finds the administrator and shows no password.
    const again = await startServer(path.join(dataDir, 'generated'), { ADMIN_PASSWORD: '' });
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(again.output()).not.toMatch(/password/i);
  }, 90_000);
});
