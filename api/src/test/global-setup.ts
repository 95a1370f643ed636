import type { TestProject } from 'vitest/node';
import { installJobSchema } from '../db/job-schema.js';
import { migrate, openOrm } from '../db/orm.js';
import { createTestDatabase, dropDatabase } from './database.js';

let template: { serverUrl: string; name: string } | null = null;

/**
 * On PostgreSQL (DATABASE_URL), one database migrated once for the whole API tier; every test app
 * starts on a copy of it (harness.ts). Its name is random, so runs side by side keep their own.
 */
export async function setup(project: TestProject): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    project.provide('migratedTemplate', null);
    return;
  }
  const db = await createTestDatabase(serverUrl);
  const orm = await openOrm({ url: db.url!, entities: [] });
  try {
    await migrate(orm);
    await installJobSchema(orm);
  } finally {
    await orm.close();
  }
  const name = new URL(db.url!).pathname.slice(1);
  template = { serverUrl, name };
  project.provide('migratedTemplate', name);
}

export async function teardown(): Promise<void> {
  if (template) await dropDatabase(template.serverUrl, template.name);
}
