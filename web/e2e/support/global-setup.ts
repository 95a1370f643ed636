import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_WORKERS } from './constants';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const servers: { process: ChildProcess; dataDir: string }[] = [];

/** Starts `node api/dist/main.js` (what `npm start` runs after building) on the embedded database. */
async function startServer(index: number): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pal-e2e-'));
  const port = 24000 + index * 5000 + Math.floor(Math.random() * 5000);
  const logName = `e2e-server-${index + 1}.log`;
  const log = createWriteStream(path.join(root, 'test-results', logName), { flags: 'w' });
  const server = spawn('node', ['api/dist/main.js'], {
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
  servers.push({ process: server, dataDir });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited during start-up: see test-results/${logName}`);
    if (
      await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      return baseUrl;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the server did not answer /healthz within 90 s: see test-results/${logName}`);
}

/** Starts the servers side by side; each worker then talks to its own (browser.ts, baseUrl). */
export async function setup(project: TestProject): Promise<void> {
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  const urls = await Promise.all(Array.from({ length: E2E_WORKERS }, (_, i) => startServer(i)));
  project.provide('baseUrls', urls);
}

export async function teardown(): Promise<void> {
  await Promise.all(
    servers.map(async ({ process: server, dataDir }) => {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    }),
  );
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker. */
    baseUrls: string[];
  }
}
