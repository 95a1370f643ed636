import 'reflect-metadata';
import type { EntityClass, IMigrator } from '@mikro-orm/core';
import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import type { EmbeddedConnection } from './embedded.js';
import { migrationNames } from './migrations/names.js';

/**
 * Real PostgreSQL by URL, or the embedded server's Unix socket; with the app's entities (the
 * composition root's list), or none for a connection that only migrates.
 */
export type OrmOptions = ({ url: string } | { embedded: EmbeddedConnection }) & {
  entities: EntityClass<object>[];
  debug?: boolean;
};

/**
 * PostgreSQL cannot hold a NUL in text, and one inside a query breaks the wire message itself
 * ("invalid message format"). Refuse it before it is sent, with PostgreSQL's own code for it,
 * which the error formatters turn into BAD_USER_INPUT.
 */
function refuseNul(sql: string, params: readonly unknown[]): string {
  if (sql.includes('\u0000') || params.some((p) => typeof p === 'string' && p.includes('\u0000'))) {
    throw Object.assign(new Error('Text must not contain NUL characters'), { code: '22021' });
  }
  return sql;
}

/**
 * MikroORM reads only the host name of a `clientUrl` (a `?host=/dir` is ignored), so the socket's
 * directory goes in as `host`, which `pg` treats as a Unix socket. The embedded server takes one
 * connection; real PostgreSQL gets a proper pool.
 */
function connectionOptions(options: OrmOptions): Options {
  if ('url' in options) return { clientUrl: options.url, pool: { min: 0, max: 10 } };
  const { host, port, user, database } = options.embedded;
  return { host, port, user, dbName: database, pool: { min: 0, max: 1 } };
}

export function ormConfig(options: OrmOptions): Options {
  return {
    driver: PostgreSqlDriver,
    ...connectionOptions(options),
    entities: options.entities,
    driverOptions: { connection: { connectionTimeoutMillis: 5000 } },
    // migrationsList is added with the migrator, when one is needed (migratorOf).
    migrations: {
      path: 'src/db/migrations',
      pathTs: 'src/db/migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
      silent: true,
      fileName: (timestamp: string, name?: string) => `Migration${timestamp}${name ? `_${name}` : ''}`,
    },
    onQuery: refuseNul,
    dataloader: true,
    forceUtcTimezone: true,
    ignoreUndefinedInQuery: true,
    allowGlobalContext: false,
    debug: options.debug ?? false,
    discovery: { warnWhenNoEntities: options.entities.length > 0 },
  };
}

export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormConfig(options));
}

/**
 * MikroORM's migrator with the committed migrations, loaded on first use: it and the migrations
 * (umzug, the migrations package) are a tenth of a second of a start that seldom needs them.
 */
export async function migratorOf(orm: MikroORM): Promise<IMigrator> {
  const [{ Migrator }, { migrationsList }] = await Promise.all([
    import('@mikro-orm/migrations'),
    import('./migrations/index.js'),
  ]);
  orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList });
  Migrator.register(orm);
  return orm.getMigrator();
}

/** Whether the database has applied every committed migration (false before the first). */
async function isCurrent(orm: MikroORM): Promise<boolean> {
  const table = orm.config.get('migrations').tableName ?? 'mikro_orm_migrations';
  try {
    const rows = await orm.em.getConnection().execute<{ name: string }[]>(`select name from "${table}"`);
    const applied = new Set(rows.map((row) => row.name));
    return migrationNames.every((name) => applied.has(name));
  } catch {
    return false;
  }
}

/**
 * Keys of the PostgreSQL advisory locks (per database) that replicas starting at once on a new
 * database take in turn, so that one of them migrates and one creates the first administrator.
 */
export const startupLocks = { migrations: 7_061_401, firstAdmin: 7_061_402 } as const;

/**
 * Applies committed migrations; never `schema:update`. On a database other replicas may start on
 * at once (`shared`), under the migrations lock: the first migrates, the others find it done. The
 * lock is held by a transaction of its own while the migrator uses other connections, which the
 * embedded database, with its one connection, does not have (nor needs: it has one process).
 */
export async function migrate(orm: MikroORM, options: { shared?: boolean } = {}): Promise<void> {
  if (await isCurrent(orm)) return;
  const migrator = await migratorOf(orm);
  if (!options.shared) {
    await migrator.up();
    return;
  }
  const connection = orm.em.getConnection();
  await connection.transactional(async (trx) => {
    await connection.execute('select pg_advisory_xact_lock(?)', [startupLocks.migrations], 'run', trx);
    await migrator.up();
  });
}
