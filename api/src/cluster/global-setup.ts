import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { createTestDatabase } from '../test/database.js';
import { startNginx } from './nginx.js';
import { assertClusterPrerequisites } from './preflight.js';
import { freePort, logTail, startProcess, stopProcess, waitUntilHealthy, type Started } from './processes.js';

/** What the test files get (inject('cluster')). */
export interface ClusterInfo {
  /** nginx, round-robin over the replicas. */
  proxyUrl: string;
  /** The replicas themselves, for tests that pick one. */
  replicaUrls: string[];
  adminEmail: string;
  adminPassword: string;
  /** The replicas' shared DATA_DIR and database, for fixtures no route makes quickly. */
  dataDir: string;
  databaseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    cluster: ClusterInfo;
  }
}

const root = fileURLToPath(new URL('../../..', import.meta.url));
const logDir = path.join(root, 'test-results', 'cluster');
const postgresUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const nginxPath = process.env.NGINX ?? '/usr/sbin/nginx';
const ADMIN_EMAIL = 'cluster-admin@example.com';
const ADMIN_PASSWORD = 'cluster-admin-password';

let tempDir: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
const started: Started[] = [];

/**
 * Two replicas of the built server (`node api/dist/main.js`) started at once on one fresh
 * PostgreSQL database, the machine's Redis and one DATA_DIR (with the secret the first generates
 * there), behind nginx running the deployment's own config (deploy/nginx.conf): what
 * `docker compose up --scale app=2` starts (docs/operations.md, "Several replicas"), once for the tier.
 */
export async function setup(project: TestProject): Promise<void> {
  await assertClusterPrerequisites({ root, postgresUrl, redisUrl, nginxPath });
  try {
    project.provide('cluster', await startCluster());
  } catch (err) {
    await teardown();
    throw err;
  }
}

async function startCluster(): Promise<ClusterInfo> {
  mkdirSync(logDir, { recursive: true });
  tempDir = mkdtempSync(path.join(tmpdir(), 'pal-cluster-'));
  // nginx's unprivileged worker must reach its temporary files below; DATA_DIR stays owner-only.
  chmodSync(tempDir, 0o711);
  const dataDir = path.join(tempDir, 'data');
  const nginxDir = path.join(tempDir, 'nginx');
  mkdirSync(dataDir, { mode: 0o700 });
  mkdirSync(nginxDir);
  const db = await createTestDatabase(postgresUrl);
  dropDatabase = db.drop;
  const databaseUrl = db.url as string;
  const env: NodeJS.ProcessEnv = {
    // Only what a server needs from the caller's environment: a stray LOGIN_RATE_LIMIT_PER_MINUTE
    // or RIP_* in a developer's shell must not move the limits the tests assert.
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    // nginx reaches the replicas over loopback: X-Forwarded-For is believed from there only.
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
  };
  // At once, on a new database and an empty DATA_DIR: one generates the secret, applies the
  // migrations and creates the administrator, and the other uses what it made.
  const replicaUrls = await Promise.all(['a', 'b'].map((name) => startReplica(name, env)));

  const port = await freePort();
  const replicaPorts = replicaUrls.map((url) => Number(new URL(url).port));
  const nginx = startNginx(nginxPath, nginxDir, port, replicaPorts, path.join(logDir, 'nginx.log'));
  started.push(nginx);
  const proxyUrl = `http://127.0.0.1:${port}`;
  try {
    // Twice: round-robin, one answer from each replica through it.
    for (let i = 0; i < 2; i++) await waitUntilHealthy(nginx, `${proxyUrl}/healthz`, 30_000);
  } catch (err) {
    throw new Error(
      `${(err as Error).message}\nnginx error.log ends:\n${logTail({ logFile: path.join(nginxDir, 'error.log') })}`,
    );
  }
  return { proxyUrl, replicaUrls, adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, dataDir, databaseUrl };
}

/** Starts one replica and waits for its /healthz; a port taken meanwhile gets another try. */
async function startReplica(name: string, env: NodeJS.ProcessEnv): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const replica = startProcess(`replica ${name}`, process.execPath, ['api/dist/main.js'], {
      cwd: root,
      env: { ...env, PORT: String(port) },
      logFile: path.join(logDir, `replica-${name}.log`),
    });
    started.push(replica);
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilHealthy(replica, `${url}/healthz`);
      return url;
    } catch (err) {
      if (attempt >= 3 || !/is in use/.test(logTail(replica))) throw err;
    }
  }
}

export async function teardown(): Promise<void> {
  // nginx first, so nothing reaches a replica while it stops.
  for (const child of started.reverse()) await stopProcess(child);
  started.length = 0;
  await dropDatabase?.();
  dropDatabase = undefined;
  if (tempDir) {
    for (const log of ['error.log', 'access.log']) {
      const file = path.join(tempDir, 'nginx', log);
      if (existsSync(file)) copyFileSync(file, path.join(logDir, `nginx-${log}`));
    }
    rmSync(tempDir, { recursive: true, force: true });
    tempDir = undefined;
  }
}
