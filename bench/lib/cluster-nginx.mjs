// nginx running the deployment's own deploy/nginx.conf in front of the given replicas, as the
// cluster test tier does (api/src/cluster/nginx.ts, which the bench cannot import: the build leaves
// the tier out): its `listen 80;` line becomes a loopback port and its `server app:4000 resolve;`
// line one server line per replica; the proxying itself (keep-alive pool, unbuffered audio,
// headers) is the deployment's.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './paths.mjs';

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

function replaceLine(text, pattern, make) {
  const found = [...text.matchAll(new RegExp(pattern.source, 'gm'))];
  if (found.length !== 1) throw new Error(`deploy/nginx.conf must have exactly one line matching ${pattern}`);
  return text.replace(new RegExp(pattern.source, 'm'), (_line, indent) => make(indent));
}

/** Starts nginx on a loopback port over `replicaUrls`; returns { url, stop() }. */
export async function startDeployNginx(bin, replicaUrls) {
  const prefix = mkdtempSync(path.join(tmpdir(), 'pal-bench-cluster-nginx-'));
  chmodSync(prefix, 0o755);
  const port = await freePort();
  const deploy = readFileSync(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8');
  const listening = replaceLine(deploy, /^([ \t]*)listen 80;$/, (indent) => `${indent}listen 127.0.0.1:${port};`);
  const rendered = replaceLine(listening, /^([ \t]*)server app:4000 resolve;$/, (indent) =>
    replicaUrls.map((url) => `${indent}server 127.0.0.1:${new URL(url).port};`).join('\n'),
  );
  writeFileSync(path.join(prefix, 'deploy-nginx.conf'), rendered);
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
  # Which replica answered, as the cluster tier's nginx says it: the bench checks both serve.
  add_header X-Upstream $upstream_addr always;
  include ${prefix}/deploy-nginx.conf;
}
`,
  );
  const child = spawn(bin, ['-p', prefix, '-c', conf, '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 15 s: ${stderr}`);
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
