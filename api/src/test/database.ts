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

export interface DatabaseKind {
  name: string;
  /** For file and folder names. */
  slug: 'embedded' | 'postgresql';
  /** The embedded database under DATA_DIR; else a new database on the server DATABASE_URL names. */
  embedded: boolean;
}

/**
 * The kinds of database a test that must hold on both runs on, as `[name, kind]` for
 * `describe.each` / `it.each` with `%s`: the embedded one always, and the server DATABASE_URL names
 * when it is set (CI).
 */
export const databaseKinds: (readonly [string, DatabaseKind])[] = [
  { name: 'the embedded database', slug: 'embedded' as const, embedded: true },
  ...(process.env.DATABASE_URL ? [{ name: 'PostgreSQL', slug: 'postgresql' as const, embedded: false }] : []),
].map((kind) => [kind.name, kind] as const);

/** A clean database of `kind` (see createTestDatabase). */
export const createTestDatabaseOf = (kind: DatabaseKind) =>
  kind.embedded
    ? Promise.resolve({ url: undefined, drop: async () => {} })
    : createTestDatabase(process.env.DATABASE_URL);
