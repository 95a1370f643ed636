import pg from 'pg';
import { JOB_APPLICATION_NAME, runningJob } from '../features/jobs/job-queue.js';

/** A statement as the driver got it: text with $1, $2, … and their values. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * True for a statement of the background job queue or of a job handler: not a request's, so a test
 * counting a request's statements leaves it out. On a server the queue has connections of its own
 * (named JOB_APPLICATION_NAME), and some of its upkeep names no table (its clock check, BEGIN);
 * on the embedded database it shares the ORM's, and its statements name the pgboss schema.
 */
export function isBackgroundStatement(client: pg.Client, query: unknown): boolean {
  if (runningJob.getStore() !== undefined) return true;
  const params = (client as { connectionParameters?: { application_name?: string } }).connectionParameters;
  if (params?.application_name === JOB_APPLICATION_NAME) return true;
  const text = typeof query === 'string' ? query : String((query as { text?: unknown } | null)?.text);
  return /\bpgboss\./.test(text);
}

/**
 * The SQL statements the app sends through the pg driver while `call` runs, on every connection of
 * this process (the test app runs in it): how many, their text, and their text with values.
 * Start nothing else meanwhile. The background job queue's own statements (its polling, in the
 * pgboss schema) and those of job handlers running meanwhile are not the call's: left out.
 */
export async function countQueries<T>(
  call: () => Promise<T>,
): Promise<{ result: T; queries: number; statements: string[]; sent: SentStatement[] }> {
  const original = pg.Client.prototype.query;
  const sent: SentStatement[] = [];
  pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    const [query, values] = args;
    if (isBackgroundStatement(this, query)) return (original as (...a: unknown[]) => unknown).apply(this, args);
    if (typeof query === 'string') sent.push({ text: query, values: Array.isArray(values) ? values : [] });
    else {
      const config = query as { text?: unknown; values?: unknown[] } | null;
      sent.push({ text: String(config?.text), values: config?.values ?? [] });
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  try {
    const result = await call();
    return { result, queries: sent.length, statements: sent.map((s) => s.text), sent };
  } finally {
    pg.Client.prototype.query = original;
  }
}
