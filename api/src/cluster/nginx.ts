import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess, type Started } from './processes.js';

/** The header nginx adds to every answer: which replica (host:port) served it. */
export const UPSTREAM_HEADER = 'x-upstream';

/** The nginx configuration the deployment runs (docker-compose.yml), which the tier runs too. */
export const deployConfigPath = fileURLToPath(new URL('../../../deploy/nginx.conf', import.meta.url));

/** Replaces the one line `pattern` matches; a config without it (or with more) is a mistake to report. */
function replaceLine(text: string, pattern: RegExp, make: (indent: string) => string): string {
  const found = [...text.matchAll(new RegExp(pattern.source, 'gm'))];
  if (found.length !== 1) {
    throw new Error(`deploy/nginx.conf must have exactly one line matching ${pattern} (found ${found.length})`);
  }
  return text.replace(new RegExp(pattern.source, 'm'), (_line, indent: string) => make(indent));
}

/**
 * deploy/nginx.conf with the tier's replicas in place of the compose service (`app:4000`, found
 * through Docker's DNS) and a loopback port in place of port 80: the proxying itself (round-robin,
 * WebSocket upgrades, forwarded headers, unbuffered audio, body limits, timeouts) is the deployment's.
 */
export function renderDeployConfig(text: string, port: number, replicaPorts: number[]): string {
  const listening = replaceLine(text, /^([ \t]*)listen 80;$/, (indent) => `${indent}listen 127.0.0.1:${port};`);
  return replaceLine(listening, /^([ \t]*)server app:4000 resolve;$/, (indent) =>
    replicaPorts.map((replicaPort) => `${indent}server 127.0.0.1:${replicaPort};`).join('\n'),
  );
}

/**
 * The tier's nginx.conf: what the nginx image's own file sets around the deployment's config,
 * with everything nginx writes kept in `dir`, and the X-Upstream header the tests read (inherited
 * by the deployment's server, which adds no header of its own).
 */
export function nginxConfig(dir: string, deployConfig: string): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format upstream '$remote_addr "$request" $status $body_bytes_sent -> $upstream_addr';
  access_log ${dir}/access.log upstream;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  add_header X-Upstream $upstream_addr always;
  include ${deployConfig};
}
`;
}

/**
 * Starts nginx in the foreground (`daemon off`) as a child process, so stopping the child stops it.
 * Started as root, its worker runs as nginx's default unprivileged user: `dir` is opened for it, and
 * the folders above it must let it through.
 */
export function startNginx(
  nginxPath: string,
  dir: string,
  port: number,
  replicaPorts: number[],
  logFile: string,
): Started {
  chmodSync(dir, 0o755);
  const deployConfig = path.join(dir, 'deploy-nginx.conf');
  writeFileSync(deployConfig, renderDeployConfig(readFileSync(deployConfigPath, 'utf8'), port, replicaPorts));
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, deployConfig));
  return startProcess('nginx', nginxPath, ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log')], {
    cwd: dir,
    env: { PATH: process.env.PATH },
    logFile,
  });
}
