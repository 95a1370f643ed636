import type { MikroORM } from '@mikro-orm/postgresql';
import { getConstructionPlans } from 'pg-boss';

/** The schema the background job queue (pg-boss) keeps its tables in, beside the app's. */
export const JOB_SCHEMA = 'pgboss';

/**
 * Creates the job queue's tables, as pg-boss would on its first start, in a database that has
 * none: for the databases copied at start (the embedded template, the API tier's migrated
 * template), so an app started on a copy does not spend a second installing them. pg-boss itself
 * migrates them at start when its version moves on.
 */
export async function installJobSchema(orm: MikroORM): Promise<void> {
  const sql = getConstructionPlans(JOB_SCHEMA);
  // One multi-statement script, run as is: knex would read its jsonb `?` operators as bindings.
  await orm.em.getKnex().raw(sql.replace(/\?/g, '\\?'));
}
