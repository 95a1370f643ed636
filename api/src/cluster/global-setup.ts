import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  /** A file per replica, named by its port, holding its process id: for tests that kill one. */
  pidDir: string;
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
/** Set by the teardown: a replica exiting from then on is not started again. */
let stopping = false;

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
  const pidDir = path.join(tempDir, 'pids');
  mkdirSync(dataDir, { mode: 0o700 });
  mkdirSync(nginxDir);
  mkdirSync(pidDir);
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
    // A job whose replica died is taken up again within seconds, not the production half minute.
    JOB_HEARTBEAT_SECONDS: '10',
    JOB_SUPERVISE_SECONDS: '2',
    JOB_POLL_SECONDS: '0.5',
  };
  // At once, on a new database and an empty DATA_DIR: one generates the secret, applies the
  // migrations and creates the administrator, and the other uses what it made.
  const replicaUrls = await Promise.all(['a', 'b'].map((name) => startReplica(name, env, pidDir)));

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
  return {
    proxyUrl,
    replicaUrls,
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    dataDir,
    databaseUrl,
    pidDir,
  };
}

/** Starts one replica and waits for its /healthz; a port taken meanwhile gets another try. */
async function startReplica(name: string, env: NodeJS.ProcessEnv, pidDir: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const replica = launchReplica(name, env, pidDir, port, 'w');
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilHealthy(replica, `${url}/healthz`);
      return url;
    } catch (err) {
      if (attempt >= 3 || !/is in use/.test(logTail(replica))) throw err;
    }
  }
}

/**
 * One replica process on `port`, its id written to pidDir. Like compose's `restart: unless-stopped`,
 * a replica a test kills with a signal comes back on the same port, so the files after that test
 * have two replicas again; one that exits by itself (a failed start) is not started again.
 */
function launchReplica(name: string, env: NodeJS.ProcessEnv, pidDir: string, port: number, flags: 'w' | 'a'): Started {
  const replica = startProcess(`replica ${name}`, process.execPath, ['api/dist/main.js'], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    logFile: path.join(logDir, `replica-${name}.log`),
    flags,
  });
  started.push(replica);
  writeFileSync(path.join(pidDir, String(port)), String(replica.child.pid));
  replica.child.once('exit', (_code, signal) => {
    if (!stopping && signal) launchReplica(name, env, pidDir, port, 'a');
  });
  return replica;
}

export async function teardown(): Promise<void> {
  stopping = true;
  // nginx first, so nothing reaches a replica while it stops (a replica started again came after it).
  const nginxFirst = [...started.filter((s) => s.name === 'nginx'), ...started.filter((s) => s.name !== 'nginx')];
  for (const child of nginxFirst) await stopProcess(child);
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
  stopping = false;
}
