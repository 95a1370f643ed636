// Which database the run uses: the embedded PGlite by default (as `npm start` does without
// DATABASE_URL), or a temporary database on the PostgreSQL server named by BENCH_DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { repoRoot } from './paths.mjs';

async function query(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** { url (undefined: embedded), label for the report, drop() }. */
export async function openBenchDatabase(serverUrl) {
  if (!serverUrl) {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'));
    return {
      url: undefined,
      label: `embedded PGlite ${pkg.version} (PostgreSQL compiled to WASM, in a worker thread of the API process, served over pglite-socket to the same MikroORM/pg driver, one connection)`,
      drop: async () => {},
    };
  }
  const name = `pal_bench_${randomBytes(6).toString('hex')}`;
  await query(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const version = (await query(url.toString(), 'show server_version')).rows[0].server_version;
  return {
    url: url.toString(),
    label: `PostgreSQL ${version} at ${url.host} (temporary database ${name}, pool of up to 10 connections)`,
    drop: () => query(serverUrl, `drop database if exists "${name}" with (force)`).then(() => {}),
  };
}
