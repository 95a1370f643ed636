import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabaseOptions {
  /** Copy this database (CREATE DATABASE … TEMPLATE) instead of starting empty. */
  template?: string | null;
}

/**
 * A clean database for one test file: a new database on the server named by DATABASE_URL
 * (CI), or undefined so the app starts its own embedded PGlite. Empty, unless `template` names a
 * database to copy.
 */
export async function createTestDatabase(
  serverUrl: string | undefined = process.env.DATABASE_URL,
  options: TestDatabaseOptions = {},
): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (!serverUrl) return { url: undefined, drop: async () => {} };
  const name = `pal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"${options.template ? ` template "${options.template}"` : ''}`);
  await admin.end();
  return { url: databaseUrl(serverUrl, name), drop: () => dropDatabase(serverUrl, name) };
}

/** `serverUrl` with its database replaced by `name`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.end();
}
