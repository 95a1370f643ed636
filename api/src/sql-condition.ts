import { containsPattern } from './search-term.js';

/**
 * A piece of a WHERE clause: SQL with `?` placeholders and their values, in order. List reads are
 * written in SQL because they run on every page view: a MikroORM `find` of a page of files cost
 * 1.5-2.5 ms of CPU in query building and hydration, the same statement sent as SQL about 0.15 ms.
 */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

const MATCH_ALL: SqlCondition = { sql: 'true', params: [] };

function joined(conditions: SqlCondition[], operator: 'and' | 'or'): SqlCondition {
  if (conditions.length === 0) return operator === 'and' ? MATCH_ALL : { sql: 'false', params: [] };
  return {
    sql: conditions.map((c) => `(${c.sql})`).join(` ${operator} `),
    params: conditions.flatMap((c) => c.params),
  };
}

/** Rows matching every condition; no conditions match every row. */
export const allOf = (conditions: SqlCondition[]): SqlCondition => joined(conditions, 'and');

/** Rows matching any condition; no conditions match no row. */
export const anyOf = (conditions: SqlCondition[]): SqlCondition => joined(conditions, 'or');

/** `column in (?, ?, …)`; an empty list matches no row. */
export function inList(column: string, values: readonly unknown[]): SqlCondition {
  if (values.length === 0) return { sql: 'false', params: [] };
  return { sql: `${column} in (${values.map(() => '?').join(', ')})`, params: [...values] };
}

/** A case-insensitive substring of any of the columns, with %, _ and \ in the term taken literally. */
export function containsAny(columns: string[], term: string): SqlCondition {
  const pattern = containsPattern(term);
  return anyOf(columns.map((column) => ({ sql: `${column} ilike ?`, params: [pattern] })));
}
