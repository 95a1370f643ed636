import 'reflect-metadata';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import type { EmbeddedConnection } from './embedded.js';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';

/** Real PostgreSQL by URL, or the embedded server's Unix socket. */
export type OrmOptions = ({ url: string } | { embedded: EmbeddedConnection }) & { debug?: boolean };

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
    entities,
    extensions: [Migrator],
    driverOptions: { connection: { connectionTimeoutMillis: 5000 } },
    migrations: {
      migrationsList,
      path: 'src/db/migrations',
      pathTs: 'src/db/migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
      silent: true,
      fileName: (timestamp: string, name?: string) => `Migration${timestamp}${name ? `_${name}` : ""}`,
    },
    onQuery: refuseNul,
    dataloader: true,
    forceUtcTimezone: true,
    ignoreUndefinedInQuery: true,
    allowGlobalContext: false,
    debug: options.debug ?? false,
    discovery: { warnWhenNoEntities: true },
  };
}

export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormConfig(options));
}

/** Applies committed migrations; never `schema:update`. */
export async function migrate(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up();
}
