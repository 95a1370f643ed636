import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A clean database for one test file: a new database on the server named by DATABASE_URL
 * (CI), or undefined so the app starts its own embedded PGlite.
 */
export async function createTestDatabase(
  serverUrl: string | undefined = process.env.DATABASE_URL,
): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (!serverUrl) return { url: undefined, drop: async () => {} };
  const name = `pal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}
