import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * Per table, the row count and a digest of every row, in one query. Left out: the migrations
 * table, and device sessions' lastActivity, which every signed-in request may refresh.
 */
export async function dataSnapshot(orm: MikroORM): Promise<Record<string, string>> {
  const connection = orm.em.getConnection();
  const tables = (
    await connection.execute<{ table_name: string }[]>(
      `select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'mikro_orm_migrations'
      order by table_name`,
    )
  ).map((r) => r.table_name);
  const parts = tables.map(
    (name) =>
      `select '${name}' as name, count(*)::text || ':' || coalesce(md5(string_agg(r, '|' order by r)), '') as digest
         from (select (to_jsonb(t) - 'last_activity')::text as r from "${name}" t) rows`,
  );
  const rows = await connection.execute<{ name: string; digest: string }[]>(parts.join(' union all '));
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}

/** The tables whose content differs between two snapshots. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}
