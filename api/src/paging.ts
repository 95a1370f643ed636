import type { EntityManager } from '@mikro-orm/postgresql';
import { ArgsType, Field, Int } from 'type-graphql';
import { z } from 'zod';
import { AppError } from './errors.js';
import { allOf, anyOf, type SqlCondition } from './sql-condition.js';
import { parseInput, uuidPattern } from './validation.js';

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 0, description: 'Rows to skip.' })
  offset!: number;

  @Field(() => Int, { defaultValue: 10, description: 'Rows to return, 1 to 100.' })
  limit!: number;
}

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { defaultValue: 20, description: 'Items to return, 1 to 100.' })
  first!: number;

  @Field(() => String, {
    nullable: true,
    description: 'Start after this cursor (an endCursor or edge cursor of the same list, in the same order).',
  })
  after?: string | null;
}

export const pageSchema = z.object({
  offset: z.number().int().min(0, 'offset must be 0 or more').default(0),
  limit: z
    .number()
    .int()
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(10),
});

const connectionSchema = z.object({
  first: z
    .number()
    .int()
    .min(1, 'first must be between 1 and 100')
    .max(100, 'first must be between 1 and 100')
    .default(20),
  after: z.string().nullish(),
});

export interface Page {
  offset: number;
  limit: number;
}

/** The cursor form's arguments, as given (checked by findConnection). */
export interface ConnectionInput {
  first?: number | null;
  after?: string | null;
}

export function parsePage(input: Partial<Page> | undefined): Page {
  return parseInput(pageSchema, input ?? {});
}

/**
 * How a sort key's value is carried in a cursor: as text, except times, carried as whole
 * microseconds since 1970 so that no precision is lost on the way through JavaScript.
 */
export type SortKeyType = 'timestamptz' | 'text' | 'float8' | 'uuid' | 'int8';

export interface SortKey {
  /** An SQL expression over the list's tables, with `?` placeholders for `params`. */
  sql: string;
  params?: readonly unknown[];
  type: SortKeyType;
  direction: 'asc' | 'desc';
  /** The expression may be null; nulls then sort last. */
  nullable?: boolean;
}

/** The order of a list: its keys, the last one unique and never null, so the order is total. */
export interface Ordering {
  /** Names the order inside its cursors, so a cursor of another order is refused. */
  name: string;
  keys: readonly SortKey[];
}

/** Newest first: THE default order of lists, by creation time, the id breaking ties. */
export function newestFirst(table: string): SortKey[] {
  return [
    { sql: `${table}.created_at`, type: 'timestamptz', direction: 'desc' },
    { sql: `${table}.id`, type: 'uuid', direction: 'asc' },
  ];
}

export function orderBySql({ keys }: Ordering): SqlCondition {
  return {
    sql: keys.map((k) => `${k.sql} ${k.direction}${k.nullable ? ' nulls last' : ''}`).join(', '),
    params: keys.flatMap((k) => k.params ?? []),
  };
}

const valueSql = (key: SortKey) =>
  key.type === 'timestamptz' ? `(extract(epoch from ${key.sql}) * 1000000)::int8::text` : `(${key.sql})::text`;

const parameterSql: Record<SortKeyType, string> = {
  timestamptz: `(timestamptz 'epoch' + cast(? as float8) * interval '1 microsecond')`,
  text: 'cast(? as text)',
  float8: 'cast(? as float8)',
  uuid: 'cast(? as uuid)',
  int8: 'cast(? as int8)',
};

const validValue: Record<SortKeyType, (value: string) => boolean> = {
  timestamptz: (v) => /^-?\d{1,17}$/.test(v),
  text: (v) => v.length <= 1000,
  float8: (v) => /^(-?\d+(\.\d+)?(e[+-]?\d+)?|-?Infinity|NaN)$/.test(v),
  uuid: (v) => uuidPattern.test(v),
  int8: (v) => /^-?\d{1,18}$/.test(v),
};

type CursorValues = (string | null)[];

function equalTo(key: SortKey, value: string | null): SqlCondition {
  const params = key.params ?? [];
  if (value === null) return { sql: `${key.sql} is null`, params: [...params] };
  return { sql: `${key.sql} = ${parameterSql[key.type]}`, params: [...params, value] };
}

/** Rows whose key sorts strictly after `value`; null when none can (nulls sort last). */
function beyond(key: SortKey, value: string | null): SqlCondition | null {
  if (value === null) return null;
  const params = key.params ?? [];
  const after = `${key.sql} ${key.direction === 'asc' ? '>' : '<'} ${parameterSql[key.type]}`;
  if (!key.nullable) return { sql: after, params: [...params, value] };
  return { sql: `${after} or ${key.sql} is null`, params: [...params, value, ...params] };
}

/** The rows after the row whose keys were `values`, in the ordering: a keyset condition, no OFFSET. */
function keysetAfter({ keys }: Ordering, values: CursorValues): SqlCondition {
  const branches: SqlCondition[] = [];
  keys.forEach((key, i) => {
    const after = beyond(key, values[i]);
    if (after) branches.push(allOf([...keys.slice(0, i).map((k, j) => equalTo(k, values[j])), after]));
  });
  return anyOf(branches);
}

function encodeCursor(ordering: Ordering, values: CursorValues): string {
  return Buffer.from(JSON.stringify([ordering.name, ...values])).toString('base64url');
}

function decodeCursor(ordering: Ordering, cursor: string): CursorValues {
  const refused = () => new AppError('BAD_USER_INPUT', 'after is not a cursor of this list', { field: 'after' });
  let decoded: unknown;
  try {
    decoded = cursor.length <= 4096 ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  } catch {
    throw refused();
  }
  if (!Array.isArray(decoded) || decoded.length !== ordering.keys.length + 1 || decoded[0] !== ordering.name) {
    throw refused();
  }
  const values = decoded.slice(1) as unknown[];
  const valid = ordering.keys.every((key, i) => {
    const value = values[i];
    if (value === null) return key.nullable === true;
    return typeof value === 'string' && validValue[key.type](value);
  });
  if (!valid) throw refused();
  return values as CursorValues;
}

/** What a list reads: its tables, the columns of a row, which rows, in which order. */
export interface ListQuery {
  /** The FROM clause (tables and joins). */
  from: string;
  columns: string;
  where: SqlCondition;
  ordering: Ordering;
}

/** A Relay-style connection: the page's nodes with their cursors, and where the page stands. */
export interface Connection<T> {
  totalCount: number;
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

async function countRows(em: EntityManager, query: ListQuery): Promise<number> {
  const [{ total }] = await em.execute<{ total: number }[]>(
    `select count(*)::int as total from ${query.from} where ${query.where.sql}`,
    query.where.params,
  );
  return total;
}

/** Rows of the list in its order, `page` of them (every row without one): one statement. */
export async function findRows<Row>(em: EntityManager, query: ListQuery, page: Page | null = null): Promise<Row[]> {
  const order = orderBySql(query.ordering);
  return em.execute<Row[]>(
    `select ${query.columns} from ${query.from} where ${query.where.sql} order by ${order.sql}` +
      (page ? ' limit ? offset ?' : ''),
    [...query.where.params, ...order.params, ...(page ? [page.limit, page.offset] : [])],
  );
}

/** One offset page of the list and how many rows match in all: two statements, whatever the rows. */
export async function findOffsetPage<Row>(
  em: EntityManager,
  query: ListQuery,
  input: Partial<Page>,
): Promise<{ total: number; rows: Row[] }> {
  const page = parsePage(input);
  const [rows, total] = await Promise.all([findRows<Row>(em, query, page), countRows(em, query)]);
  return { total, rows };
}

/**
 * The `first` rows after the `after` cursor (keyset: the rows after that row's keys, so rows added
 * or removed meanwhile never shift a page) and how many match in all: two statements.
 */
export async function findConnection<Row>(
  em: EntityManager,
  query: ListQuery,
  input: ConnectionInput,
): Promise<Connection<Row>> {
  const { first, after } = parseInput(connectionSchema, { first: input.first ?? undefined, after: input.after });
  const { ordering } = query;
  const where = after ? allOf([query.where, keysetAfter(ordering, decodeCursor(ordering, after))]) : query.where;
  const order = orderBySql(ordering);
  const keyColumns = ordering.keys.map((key, i) => `${valueSql(key)} as cursor_key_${i}`).join(', ');
  const [rows, totalCount] = await Promise.all([
    em.execute<(Row & Record<string, string | null>)[]>(
      `select ${query.columns}, ${keyColumns} from ${query.from} where ${where.sql} order by ${order.sql} limit ?`,
      [...ordering.keys.flatMap((k) => k.params ?? []), ...where.params, ...order.params, first + 1],
    ),
    countRows(em, query),
  ]);
  const edges = rows.slice(0, first).map((row) => ({
    cursor: encodeCursor(
      ordering,
      ordering.keys.map((_, i) => row[`cursor_key_${i}`]),
    ),
    node: row as Row,
  }));
  return {
    totalCount,
    edges,
    pageInfo: {
      hasNextPage: rows.length > first,
      hasPreviousPage: Boolean(after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** The same connection with its nodes made into what the API returns (all at once, for batch loads). */
export async function mapConnection<A, B>(
  connection: Connection<A>,
  map: (rows: A[]) => B[] | Promise<B[]>,
): Promise<Connection<B>> {
  const nodes = await map(connection.edges.map((e) => e.node));
  return { ...connection, edges: connection.edges.map((e, i) => ({ cursor: e.cursor, node: nodes[i] })) };
}
