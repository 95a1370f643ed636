import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Knex } from '@mikro-orm/knex';
import type pg from 'pg';
import { migratorOf } from '../../db/orm.js';
import type { BackupHeader, DumpedTable } from './backup-format.js';
import { parseCopyLine } from './copy-text.js';
import { inTransaction, quoteIdent, withPoolClient } from './database-client.js';

/** Rows per INSERT, and text per INSERT, whichever comes first: large bytea rows make few rows a batch. */
const BATCH_ROWS = 1000;
const BATCH_CHARS = 8 * 1024 * 1024;

/**
 * Loads the staged COPY data of each table, in the header's order (foreign keys satisfied as it
 * goes), then sets each sequence. Rows go in as batched `INSERT ... SELECT FROM unnest(text[])`,
 * each value cast from its text form by its column's type, not with COPY FROM STDIN: PGlite's
 * socket server loses the protocol's thread on COPY FROM ("protocol synchronization was lost"),
 * checked here, and one way that works on both databases is one way to test.
 */
export async function loadTables(
  client: pg.ClientBase,
  header: BackupHeader,
  tableFile: (table: string) => string,
): Promise<void> {
  if (header.tables.length > 0) {
    // Freshly migrated tables are empty unless a migration seeded rows: the archive has those too.
    await client.query(`truncate ${header.tables.map((t) => quoteIdent(t.name)).join(', ')}`);
  }
  for (const table of header.tables) await loadTable(client, table, tableFile(table.name));
  for (const sequence of header.sequences) {
    await client.query('select setval($1::regclass, $2::bigint, $3)', [
      quoteIdent(sequence.name),
      sequence.lastValue,
      sequence.isCalled,
    ]);
  }
}

async function columnTypes(client: pg.ClientBase, table: DumpedTable): Promise<string[]> {
  const { rows } = await client.query<{ column: string; type: string }>(
    `select a.attname as column, format_type(a.atttypid, a.atttypmod) as type
       from pg_attribute a
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped`,
    [quoteIdent(table.name)],
  );
  const types = new Map(rows.map((row) => [row.column, row.type]));
  return table.columns.map((column) => {
    const type = types.get(column);
    if (!type) throw new Error(`The backup's table ${table.name} has a column ${column} its schema lacks`);
    return type;
  });
}

async function loadTable(client: pg.ClientBase, table: DumpedTable, file: string): Promise<void> {
  const types = await columnTypes(client, table);
  const names = table.columns.map(quoteIdent).join(', ');
  const values = types.map((type, i) => `c${i}::${type}`).join(', ');
  const unnest = types.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const aliases = types.map((_, i) => `c${i}`).join(', ');
  const insert = `insert into ${quoteIdent(table.name)} (${names}) select ${values} from unnest(${unnest}) as u(${aliases})`;
  let batch: (string | null)[][] = types.map(() => []);
  let rows = 0;
  let chars = 0;
  const flush = async () => {
    if (rows === 0) return;
    await client.query(insert, batch);
    batch = types.map(() => []);
    rows = 0;
    chars = 0;
  };
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    const row = parseCopyLine(line);
    if (row.length !== types.length) throw new Error(`A row of ${table.name} does not have its columns`);
    row.forEach((value, i) => batch[i].push(value));
    rows++;
    chars += line.length;
    if (rows >= BATCH_ROWS || chars >= BATCH_CHARS) await flush();
  }
  await flush();
}

/**
 * Rebuilds the database from a staged archive: the schema as it was when the backup was made
 * (the migrations up to its level), its rows, then the migrations since. The migrations table is
 * made first, outside any transaction, as the migrator itself would.
 *
 * `atomic`: all of it in one transaction, so a failure leaves the database empty as it was (real
 * PostgreSQL, where the migrator's own bookkeeping queries use other pool connections). The
 * embedded database has one connection, which a transaction held here would leave the migrator
 * waiting for; it is restored into a staging database that a failure throws away instead.
 * `beforeCommit` runs last inside the atomic transaction: a failure there rolls it all back.
 */
export async function restoreDatabase(
  orm: MikroORM,
  header: BackupHeader,
  tableFile: (table: string) => string,
  options: { atomic: boolean; beforeCommit?: () => Promise<void> },
): Promise<void> {
  const migrator = await migratorOf(orm);
  // A new embedded cluster made from the build's template is at the current level already.
  const atLevel = (await migrator.getExecutedMigrations()).some((m) => m.name === header.migration);
  if (!options.atomic) {
    if (!atLevel) await migrator.up({ to: header.migration });
    await withPoolClient(orm.em, (client) => inTransaction(client, '', () => loadTables(client, header, tableFile)));
    await migrator.up();
    return;
  }
  await orm.em.getConnection().transactional(async (trx: Knex.Transaction) => {
    if (!atLevel) await migrator.up({ to: header.migration, transaction: trx });
    const client = (await trx.client.acquireConnection()) as pg.ClientBase;
    await loadTables(client, header, tableFile);
    await migrator.up({ transaction: trx });
    await options.beforeCommit?.();
  });
}
