import path from 'node:path';
import type { EntityClass } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppConfig } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { startEmbeddedDatabase } from './embedded.js';
import { openOrm } from './orm.js';
import { keepStatisticsCurrent } from './planner-statistics.js';

export interface Database {
  orm: MikroORM;
  /** Closes the connections, then stops the embedded database if one was started. */
  close(): Promise<void>;
}

/** The database at DATABASE_URL, or else an embedded one (PGlite) under the data directory, mapping `entities`. */
export async function openDatabase(
  config: AppConfig,
  logger: Logger,
  entities: EntityClass<object>[],
): Promise<Database> {
  if (config.databaseUrl) {
    const orm = await openOrm({ url: config.databaseUrl, entities }).catch((err: Error) => {
      throw new AppError('INTERNAL', `Cannot connect to DATABASE_URL: ${err.message}`);
    });
    if (!(await orm.isConnected()))
      throw new AppError('INTERNAL', 'Cannot connect to DATABASE_URL: check the host, port and credentials');
    return { orm, close: () => orm.close(true) };
  }
  const embedded = await startEmbeddedDatabase(path.join(config.dataDir, 'pgdata'));
  logger.info('db.embedded', { dataDir: path.join(config.dataDir, 'pgdata') });
  const orm = await openOrm({ embedded: embedded.connection, entities });
  // Real PostgreSQL has autovacuum for this.
  const statistics = keepStatisticsCurrent(orm, logger);
  return {
    orm,
    async close() {
      await statistics.stop();
      await orm.close(true);
      await embedded.stop();
    },
  };
}
