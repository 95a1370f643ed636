import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './constants';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let server: ChildProcess | undefined;
let dataDir: string | undefined;

/** Starts `node api/dist/main.js` (what `npm start` runs after building) on the embedded database. */
export async function setup(project: TestProject): Promise<void> {
  dataDir = mkdtempSync(path.join(tmpdir(), 'pal-e2e-'));
  const port = 24000 + Math.floor(Math.random() * 10000);
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  const log = createWriteStream(path.join(root, 'test-results', 'e2e-server.log'), { flags: 'w' });
  server = spawn('node', ['api/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error('the server exited during start-up: see test-results/e2e-server.log');
    if (
      await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      project.provide('baseUrl', baseUrl);
      project.provide('dataDir', dataDir);
      return;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('the server did not answer /healthz within 90 s');
}

export async function teardown(): Promise<void> {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server?.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
