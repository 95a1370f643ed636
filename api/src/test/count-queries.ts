import pg from 'pg';

/**
 * The SQL statements the app sends through the pg driver while `call` runs, on every connection of
 * this process (the test app runs in it). Start nothing else meanwhile.
 */
export async function countQueries<T>(call: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const original = pg.Client.prototype.query;
  let queries = 0;
  pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    queries += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  try {
    return { result: await call(), queries };
  } finally {
    pg.Client.prototype.query = original;
  }
}
