import type pg from 'pg';
import type { DumpedSequence, DumpedTable } from './backup-format.js';
import { quoteIdent } from './database-client.js';

/** MikroORM's own bookkeeping: a restore rebuilds it by running the migrations, never by copying it. */
export const MIGRATIONS_TABLE = 'mikro_orm_migrations';

/**
 * The app's tables (those of the connection's schema) with their columns, ordered so that every
 * table comes after the tables its foreign keys point at: loaded first to last, each row's
 * references already exist, with no need to defer or disable constraints (which takes a
 * superuser on PostgreSQL).
 */
export async function appTables(client: pg.ClientBase): Promise<DumpedTable[]> {
  const { rows: columns } = await client.query<{ table: string; column: string }>(
    `select c.relname as table, a.attname as column
       from pg_class c
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname <> $1
      order by c.relname, a.attnum`,
    [MIGRATIONS_TABLE],
  );
  const { rows: references } = await client.query<{ table: string; references: string }>(
    `select c.relname as table, r.relname as references
       from pg_constraint k
       join pg_class c on c.oid = k.conrelid
       join pg_class r on r.oid = k.confrelid
      where k.contype = 'f' and c.relnamespace = current_schema()::regnamespace`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  return loadOrder([...byTable.keys()], references).map((name) => ({ name, columns: byTable.get(name) ?? [] }));
}

/** Tables in dependency order (a topological sort); a cycle, a self-reference included, is refused. */
export function loadOrder(tables: string[], references: { table: string; references: string }[]): string[] {
  const ordered: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: string, path: string[]) => {
    if (state.get(table) === 'done') return;
    if (state.get(table) === 'visiting') {
      throw new Error(`Cannot order tables for a backup: foreign keys form a cycle (${[...path, table].join(' -> ')})`);
    }
    state.set(table, 'visiting');
    for (const reference of references.filter((r) => r.table === table)) visit(reference.references, [...path, table]);
    state.set(table, 'done');
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table, []);
  return ordered;
}

/**
 * The sequences of the connection's schema with their current values. Sequences stand outside
 * transactions, so inside the snapshot this reads their values now, at or past what the snapshot's
 * rows used: restored, the next value is never one a restored row holds.
 */
export async function appSequences(client: pg.ClientBase): Promise<DumpedSequence[]> {
  const { rows } = await client.query<{ name: string }>(
    `select relname as name from pg_class
      where relnamespace = current_schema()::regnamespace and relkind = 'S' order by relname`,
  );
  const sequences: DumpedSequence[] = [];
  for (const { name } of rows) {
    const { rows: values } = await client.query<{ last_value: string; is_called: boolean }>(
      `select last_value::text, is_called from ${quoteIdent(name)}`,
    );
    sequences.push({ name, lastValue: values[0].last_value, isCalled: values[0].is_called });
  }
  return sequences;
}

/** The last migration the database applied, or null before the first. */
export async function migrationLevel(client: pg.ClientBase): Promise<string | null> {
  const exists = await client.query(`select to_regclass($1) is not null as present`, [quoteIdent(MIGRATIONS_TABLE)]);
  if (!(exists.rows[0] as { present: boolean }).present) return null;
  const { rows } = await client.query<{ name: string }>(
    `select name from ${quoteIdent(MIGRATIONS_TABLE)} order by id desc limit 1`,
  );
  return rows[0]?.name ?? null;
}
