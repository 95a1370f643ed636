// nginx on a loopback port, for the benches: runNginx starts one with a given http block (one worker
// process, no daemon, its files under a temporary prefix) and stops it; startNginx is the
// static-bytes anchor beside the bare Node server (sendfile, one worker process like the one Node
// process of the API); cluster-nginx.mjs runs the deployment's config with it. Absent nginx, callers
// skip its figures with a note.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The nginx binary (NGINX overrides; Debian puts it in /usr/sbin), or null when it is not installed. */
export function findNginx() {
  for (const bin of [process.env.NGINX, 'nginx', '/usr/sbin/nginx'].filter(Boolean)) {
    if (!spawnSync(bin, ['-v']).error) return bin;
  }
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts nginx with one worker process, its pid, temporary files and errors (to stderr) under a new
 * temporary prefix (named `name`), and the lines `http({ prefix, port })` gives inside its http
 * block (which may write files of its own under the prefix; the prefix is readable by the worker
 * user), listening on `port`, a free loopback port. Waits until `ready(url)` resolves true (within
 * `waitMs`); returns { url, stop() }, stop removing the prefix too.
 */
export async function runNginx(bin, { name, http, ready, waitMs = 10_000 }) {
  const prefix = mkdtempSync(path.join(tmpdir(), `${name}-`));
  chmodSync(prefix, 0o755);
  const port = await freePort();
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log stderr error;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
${http({ prefix, port })}
}
`,
  );
  const child = spawn(bin, ['-p', prefix, '-c', conf, '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const stop = () =>
    new Promise((resolve) => {
      const done = () => {
        rmSync(prefix, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM');
    });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
      if (await ready(url).catch(() => false)) break;
      if (Date.now() > deadline) throw new Error(`nginx did not answer within ${waitMs / 1000} s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    // Not left running (or its prefix left behind) when it never came up.
    await stop();
    throw err;
  }
  return { url, stop };
}

/** Starts nginx serving `root` (readable by its worker user) by sendfile; returns { url, stop() }. */
export function startNginx(bin, root) {
  return runNginx(bin, {
    name: 'pal-bench-nginx',
    http: ({ port }) => `  sendfile on;
  # Not tcp_nopush: with sendfile it corks each answer, and a 64 KiB range then waits out the
  # peer's 40 ms delayed ACK (measured here: 390 ranges/s at 16 connections, 8,400 without).
  tcp_nopush off;
  keepalive_requests 1000000;
  types { audio/mpeg mp3; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }`,
    ready: (url) => fetch(url, { method: 'HEAD' }).then(() => true),
  });
}
