import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrationsList } from './migrations/index.js';

/** The version of an installed package, `up` folders above the file its name resolves to. */
function versionOf(name: string, up: string): string {
  const pkg = path.join(fileURLToPath(import.meta.resolve(name)), up, 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/**
 * What a template cluster was made from: the PGlite version, the migrations applied and the
 * pg-boss version whose tables it holds. The build remakes the template when it changes, and the
 * tests use the build's only while it matches.
 */
export function templateStamp(): string {
  return JSON.stringify({
    pglite: versionOf('@electric-sql/pglite', '../..'),
    migrations: migrationsList.map((m) => m.name),
    pgBoss: versionOf('pg-boss', '../..'),
  });
}
