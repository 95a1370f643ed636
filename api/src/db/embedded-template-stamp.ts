import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrationsList } from './migrations/index.js';

/**
 * What a template cluster was made from: the PGlite version and the migrations applied. The build
 * remakes the template when it changes, and the tests use the build's only while it matches.
 */
export function templateStamp(): string {
  const pglitePackage = path.join(fileURLToPath(import.meta.resolve('@electric-sql/pglite')), '../../package.json');
  return JSON.stringify({
    pglite: (JSON.parse(readFileSync(pglitePackage, 'utf8')) as { version: string }).version,
    migrations: migrationsList.map((m) => m.name),
  });
}
