import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startProcess, type Started } from './processes.js';

/** The header nginx adds to every answer: which replica (host:port) served it. */
export const UPSTREAM_HEADER = 'x-upstream';

/**
 * nginx in front of the replicas, as an operator would put it: round-robin over both, WebSocket
 * upgrades for graphql-ws, the client's address in X-Forwarded-For, and the byte routes unbuffered
 * (a buffering proxy would read audio at full speed for any client, blinding rip detection).
 * Everything it writes stays in `dir`.
 */
export function nginxConfig(dir: string, port: number, replicaPorts: number[]): string {
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
  # The app enforces its own body limits (uploads up to 2 GB).
  client_max_body_size 0;

  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' '';
  }

  upstream replicas {
${replicaPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 16;
  }

  server {
    listen 127.0.0.1:${port};
    proxy_http_version 1.1;
    proxy_set_header Host $http_host;
    # nginx is the edge here: the address it saw replaces whatever the client claimed.
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $connection_upgrade;
    # Subscriptions stay open; graphql-ws has its own keep-alive.
    proxy_read_timeout 1h;
    add_header X-Upstream $upstream_addr always;

    location / {
      proxy_pass http://replicas;
    }
    location /api/v1/drm/ {
      proxy_pass http://replicas;
      proxy_buffering off;
    }
    location ~ ^/api/v1/files/[^/]+/audio$ {
      proxy_pass http://replicas;
      proxy_buffering off;
    }
  }
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
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, replicaPorts));
  return startProcess('nginx', nginxPath, ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log')], {
    cwd: dir,
    env: { PATH: process.env.PATH },
    logFile,
  });
}
