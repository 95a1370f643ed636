// Lints the OpenAPI document the API serves at /api/v1/openapi.json with Redocly CLI, offline:
// the document is generated from the built API (api/dist; `npm run lint:openapi` builds it if stale),
// written to a temporary file and checked against redocly.yaml (zero errors, zero warnings).
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { openApiDocument } = await import(path.join(root, 'api/dist/http/openapi-document.js'));
const { apiRoutes } = await import(path.join(root, 'api/dist/compose/routes.js'));
const dir = mkdtempSync(path.join(tmpdir(), 'pal-openapi-'));
const file = path.join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(openApiDocument(apiRoutes), null, 2));
const result = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/@redocly/cli/bin/cli.js'),
    'lint',
    file,
    '--config',
    path.join(root, 'redocly.yaml'),
    '--max-problems',
    '1000',
  ],
  {
    stdio: 'inherit',
    // No telemetry, no update check: the lint must run offline.
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    },
  },
);
rmSync(dir, { recursive: true, force: true });
process.exit(result.status ?? 1);
