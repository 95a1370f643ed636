import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';

/**
 * Tables of the schema whose size has moved by more than a page and a tenth since ANALYZE last
 * recorded it (pg_class.relpages), or never analyzed and past a page: autovacuum's rule (50 rows
 * and a tenth) in pages, since the embedded database counts no changed rows (its pg_stat views
 * stay at zero).
 */
const STALE_TABLES = `select c.relname as name from pg_class c
  where c.relnamespace = to_regnamespace(current_schema()) and c.relkind = 'r'
    and abs(pg_relation_size(c.oid) / current_setting('block_size')::int - c.relpages) > 1 + 0.1 * c.relpages
  order by c.relname`;

/** Analyzes the tables whose planner statistics are stale; answers their names. */
export async function analyzeStaleTables(em: EntityManager): Promise<string[]> {
  const connection = em.getConnection();
  const stale = await connection.execute<{ name: string }[]>(STALE_TABLES);
  for (const { name } of stale) await connection.execute(`analyze "${name.replaceAll('"', '""')}"`);
  return stale.map((table) => table.name);
}

/**
 * PostgreSQL's autovacuum keeps the planner's statistics current; the embedded database (PGlite, a
 * single-user backend) runs none, so its tables were never analyzed and the planner guessed their
 * contents from their size: the library read the 3 public files of 100,000 by a scan of every file.
 * This looks once a minute, as autovacuum does. Analyzing 100,000 files held the embedded
 * database's one connection for 0.8-0.9 s here, once per tenth of growth.
 */
export function keepStatisticsCurrent(orm: MikroORM, logger: Logger, intervalMs = 60_000): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(async () => {
      try {
        const analyzed = await analyzeStaleTables(orm.em.fork());
        if (analyzed.length > 0) logger.debug('db.analyzed', { tables: analyzed });
      } catch (err) {
        logger.warn('db.analyze_failed', { error: err instanceof Error ? err.message : String(err) });
      }
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
