import { tmpdir } from 'node:os';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { ensureFirstAdmin } from '../features/users/bootstrap-admin.js';
import { User, UserRole } from '../features/users/user.entity.js';
import { createLogger } from '../logger.js';
import { createTestDatabase } from '../test/database.js';
import { entities } from '../compose/entities.js';
import { migrate, openOrm } from './orm.js';
import { migrationNames } from './migrations/names.js';

const serverUrl = process.env.DATABASE_URL;
const REPLICAS = 3;

/**
 * Replicas started together (`docker compose up --scale app=3`) on a new PostgreSQL database
 * each find it empty: they must still all start, with the migrations applied once and one
 * administrator. The embedded database belongs to one process, so this is PostgreSQL's case only.
 */
describe.skipIf(!serverUrl)('replicas starting at once on a new database', { timeout: 120_000 }, () => {
  let drop: (() => Promise<void>) | undefined;
  const orms: MikroORM[] = [];
  afterEach(async () => {
    await Promise.all(orms.splice(0).map((orm) => orm.close(true)));
    await drop?.();
  });

  async function replicas(): Promise<MikroORM[]> {
    const db = await createTestDatabase(serverUrl);
    drop = db.drop;
    for (let i = 0; i < REPLICAS; i++) orms.push(await openOrm({ url: db.url as string, entities }));
    return orms;
  }

  it('apply the migrations once between them', async () => {
    const all = await replicas();
    await Promise.all(all.map((orm) => migrate(orm, { shared: true })));
    const rows = await all[0].em.getConnection().execute<{ name: string }[]>('select name from mikro_orm_migrations');
    expect(rows.map((row) => row.name).sort()).toEqual([...migrationNames].sort());
  });

  it('create one administrator between them', async () => {
    const all = await replicas();
    await migrate(all[0], { shared: true });
    const config = loadConfig({ DATA_DIR: tmpdir(), SECRET: 'x'.repeat(32), ADMIN_PASSWORD: 'first-admin-password' });
    await Promise.all(all.map((orm) => ensureFirstAdmin(orm, config, createLogger('silent'))));
    expect(await all[0].em.fork().count(User, { role: UserRole.admin })).toBe(1);
  });
});
