// nginx running the deployment's own deploy/nginx.conf in front of the given replicas, as the
// cluster test tier does (api/src/cluster/nginx.ts, which the bench cannot import: the build leaves
// the tier out): its `listen 80;` line becomes a loopback port and its `server app:4000 resolve;`
// line one server line per replica; the proxying itself (keep-alive pool, unbuffered audio,
// headers) is the deployment's. The nginx process around it is lib/nginx.mjs's.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runNginx } from './nginx.mjs';
import { repoRoot } from './paths.mjs';

function replaceLine(text, pattern, make) {
  const found = [...text.matchAll(new RegExp(pattern.source, 'gm'))];
  if (found.length !== 1) throw new Error(`deploy/nginx.conf must have exactly one line matching ${pattern}`);
  return text.replace(new RegExp(pattern.source, 'm'), (_line, indent) => make(indent));
}

/** Starts nginx on a loopback port over `replicaUrls`; returns { url, stop() }. */
export function startDeployNginx(bin, replicaUrls) {
  const deploy = readFileSync(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8');
  return runNginx(bin, {
    name: 'pal-bench-cluster-nginx',
    http: ({ prefix, port }) => {
      const listening = replaceLine(deploy, /^([ \t]*)listen 80;$/, (indent) => `${indent}listen 127.0.0.1:${port};`);
      const rendered = replaceLine(listening, /^([ \t]*)server app:4000 resolve;$/, (indent) =>
        replicaUrls.map((url) => `${indent}server 127.0.0.1:${new URL(url).port};`).join('\n'),
      );
      writeFileSync(path.join(prefix, 'deploy-nginx.conf'), rendered);
      return `  # Which replica answered, as the cluster tier's nginx says it: the bench checks both serve.
  add_header X-Upstream $upstream_addr always;
  include ${prefix}/deploy-nginx.conf;`;
    },
    ready: (url) => fetch(`${url}/healthz`).then((res) => res.ok),
    waitMs: 15_000,
  });
}
