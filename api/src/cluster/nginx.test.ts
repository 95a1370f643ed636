import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COVER_MAX_BYTES } from '../features/files/cover-storage.js';
import { CHUNK_SIZE, MAX_FILE_SIZE } from '../features/uploads/uploads.schemas.js';
import { FORM_SLACK } from '../features/uploads/uploads.service.js';
import { deployConfigPath, renderDeployConfig } from './nginx.js';

/** deploy/nginx.conf, which docker-compose.yml runs and the cluster tier runs rendered. */
const deployConfig = readFileSync(deployConfigPath, 'utf8');

/** An nginx size (`16m`, `2060m`, `512k`) in bytes. */
function bytes(size: string): number {
  const [, amount, unit] = /^(\d+)([km]?)$/.exec(size) ?? [];
  return Number(amount) * { '': 1, k: 1024, m: 1024 * 1024 }[unit as '' | 'k' | 'm'];
}

describe('deploy/nginx.conf', () => {
  it('lets through the largest bodies the app takes', () => {
    const serverLimit = /^ {4}client_max_body_size (\w+);$/m.exec(deployConfig)?.[1];
    const wholeFile = /location ~\* \^\/api\/v1\/files\/\?\$ \{([^}]*)\}/.exec(deployConfig)?.[1] ?? '';
    const wholeFileLimit = /client_max_body_size (\w+);/.exec(wholeFile)?.[1];
    // An upload's chunk, or a cover, with its form around it.
    expect(bytes(serverLimit ?? '0')).toBeGreaterThanOrEqual(Math.max(CHUNK_SIZE, COVER_MAX_BYTES) + FORM_SLACK);
    // A whole file in one request: its audio, a cover and the form.
    expect(bytes(wholeFileLimit ?? '0')).toBeGreaterThanOrEqual(MAX_FILE_SIZE + COVER_MAX_BYTES + FORM_SLACK);
    expect(wholeFile).toContain('proxy_request_buffering off;');
  });

  it('is rendered for the cluster tier with its replicas and port, and says so when it no longer can be', () => {
    const rendered = renderDeployConfig(deployConfig, 8080, [4001, 4002]);
    expect(rendered).toMatch(/^ {4}listen 127\.0\.0\.1:8080;$/m);
    expect(rendered).toMatch(/^ {4}server 127\.0\.0\.1:4001;\n {4}server 127\.0\.0\.1:4002;$/m);
    expect(rendered).not.toMatch(/^\s*(listen 80;|server app:4000)/m);
    expect(() =>
      renderDeployConfig(deployConfig.replace(/^ {4}listen 80;$/m, '    listen 8000;'), 8080, [4001]),
    ).toThrow('deploy/nginx.conf must have exactly one line matching /^([ \\t]*)listen 80;$/ (found 0)');
  });
});
