import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.js';
import { migrationsList } from './migrations/index.js';
import { migrationNames } from './migrations/names.js';

let t: TestApp;
beforeAll(async () => {
  // An empty database the app migrates as it starts, not the tier's migrated template.
  t = await startTestApp({ emptyDatabase: true });
});
afterAll(async () => {
  await t?.close();
});

describe('migrations', () => {
  it('are listed by name for the start-up check exactly as index.ts lists them', () => {
    expect(migrationNames).toEqual(migrationsList.map((m) => m.name));
  });

  it('are all recorded as applied once a start has migrated', async () => {
    const rows = await t.app.orm.em
      .getConnection()
      .execute<{ name: string }[]>('select name from mikro_orm_migrations');
    expect(rows.map((r) => r.name).sort()).toEqual([...migrationNames].sort());
  });

  it('bring an empty database exactly to the entities (no pending schema difference)', async () => {
    const diff = await t.app.orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });

  it('enforce a case-insensitive unique email in the database itself', async () => {
    const conn = t.app.orm.em.getConnection();
    await conn.execute(
      `insert into users (id, name, email, password_hash, created_at, updated_at) values (gen_random_uuid(), 'A', 'Same@Example.com', 'x', now(), now())`,
    );
    await expect(
      conn.execute(
        `insert into users (id, name, email, password_hash, created_at, updated_at) values (gen_random_uuid(), 'B', 'same@example.COM', 'x', now(), now())`,
      ),
    ).rejects.toThrow(/unique/i);
  });
});
