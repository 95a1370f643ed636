import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { analyzeStaleTables, keepStatisticsCurrent } from './planner-statistics.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const execute = <T>(sql: string) => t.app.orm.em.getConnection().execute<T[]>(sql);

async function plannedFileRows(): Promise<number> {
  const [{ reltuples }] = await execute<{ reltuples: number }>(
    `select reltuples from pg_class where oid = 'audio_files'::regclass`,
  );
  return reltuples;
}

async function addFiles(count: number): Promise<void> {
  await execute(
    `insert into audio_files (id, title, filename, storage_path, size, duration, mime_type, is_public, created_at, updated_at)
     select gen_random_uuid(), 'File ' || i, 'f.mp3', 'audio/f.mp3', 1000, 60, 'audio/mpeg', false, now(), now()
     from generate_series(1, ${count}) i`,
  );
}

describe('planner statistics', () => {
  it('are taken again once a table has grown by a tenth, within an interval, and not before', async () => {
    await addFiles(5000);
    const keeper = keepStatisticsCurrent(t.app.orm, createLogger('silent'), 50);
    try {
      const deadline = Date.now() + 10_000;
      while ((await plannedFileRows()) < 5000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await keeper.stop();
    }
    expect(await plannedFileRows()).toBe(5000);
    expect(await analyzeStaleTables(t.app.orm.em.fork())).toEqual([]);

    await addFiles(100);
    expect(await analyzeStaleTables(t.app.orm.em.fork())).toEqual([]);
    await addFiles(1000);
    expect(await analyzeStaleTables(t.app.orm.em.fork())).toEqual(['audio_files']);
    expect(await plannedFileRows()).toBe(6100);
  });
});
