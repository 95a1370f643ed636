// nginx serving one directory on a loopback port: the static-bytes anchor beside the bare Node
// server (sendfile, one worker process like the one Node process of the API). Absent nginx, callers
// skip its figures with a note.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** Starts nginx serving `root` (readable by its worker user); returns { url, stop() }. */
export async function startNginx(bin, root) {
  const prefix = mkdtempSync(path.join(tmpdir(), 'pal-bench-nginx-'));
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
  sendfile on;
  # Not tcp_nopush: with sendfile it corks each answer, and a 64 KiB range then waits out the
  # peer's 40 ms delayed ACK (measured here: 390 ranges/s at 16 connections, 8,400 without).
  tcp_nopush off;
  keepalive_requests 1000000;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  types { audio/mpeg mp3; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`,
  );
  const child = spawn(bin, ['-p', prefix, '-c', conf, '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(url, { method: 'HEAD' }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 10 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
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
  return { url, stop };
}
