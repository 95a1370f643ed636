import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

export interface Prerequisites {
  root: string;
  postgresUrl: string;
  redisUrl: string;
  nginxPath: string;
}

/**
 * Checks everything the cluster tier needs before starting any of it, and throws one error that
 * says what to install, start or build. It never skips: in CI (`.ci/run`) a missing piece is a
 * failure like any other, and by hand the message says how to get it.
 */
export async function assertClusterPrerequisites(p: Prerequisites): Promise<void> {
  const problems = [
    Number(process.versions.node.split('.')[0]) >= 24
      ? null
      : `this is Node ${process.version}: run the tier through npm (\`npm run test:cluster\`), which runs the project's Node 24`,
    buildProblem(p.root),
    existsSync(p.nginxPath) ? null : `nginx is not at ${p.nginxPath}: apt-get install nginx-light`,
    await postgresProblem(p.postgresUrl),
    await redisProblem(p.redisUrl),
  ].filter((problem): problem is string => problem !== null);
  if (problems.length > 0) {
    throw new Error(`The cluster tier cannot start:\n- ${problems.join('\n- ')}`);
  }
}

/**
 * The tier runs the built server; a build older than the sources would test other code. Whether it
 * is older, scripts/build.mjs decides as it does for `npm start` (`npm run test:cluster` runs it first).
 */
function buildProblem(root: string): string | null {
  const check = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--check', 'api'], {
    encoding: 'utf8',
  });
  if (check.status === 0) return null;
  return `${check.stderr.trim() || 'the API build cannot be checked'}: run \`npm run build\` first`;
}

async function postgresProblem(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return (
      `PostgreSQL is not reachable at ${redacted(url)} (${(err as Error).message}): start it ` +
      '(`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`) or set DATABASE_URL'
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/** A PING over a plain socket: the tier needs nothing from Redis but that it answers. */
function redisProblem(url: string): Promise<string | null> {
  const { hostname, port } = new URL(url);
  const hint =
    `Redis is not reachable at ${redacted(url)}: start it (\`redis-server --daemonize yes --bind 127.0.0.1 -::1 ` +
    '--port 6379 --save "" --appendonly no`) or set REDIS_TEST_URL';
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) });
    const done = (problem: string | null) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(5000, () => done(hint));
    socket.on('error', (err) => done(`${hint} (${err.message})`));
    socket.on('connect', () => socket.write('PING\r\n'));
    // A server that wants a password answers -NOAUTH: it is there, and REDIS_URL carries the password.
    socket.on('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString()) ? null : `${hint} (${data})`));
  });
}

function redacted(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
