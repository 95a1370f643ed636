import pg from 'pg';

/**
 * The SQL statements the app sends through the pg driver while `call` runs, on every connection of
 * this process (the test app runs in it): how many, and their text. Start nothing else meanwhile.
 */
export async function countQueries<T>(
  call: () => Promise<T>,
): Promise<{ result: T; queries: number; statements: string[] }> {
  const original = pg.Client.prototype.query;
  const statements: string[] = [];
  pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    const [query] = args;
    statements.push(typeof query === 'string' ? query : String((query as { text?: unknown } | null)?.text));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  try {
    const result = await call();
    return { result, queries: statements.length, statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}
