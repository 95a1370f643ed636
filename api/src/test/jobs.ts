import { JOB_SCHEMA } from '../db/job-schema.js';
import type { TestApp } from './harness.js';

/**
 * Waits until no job of `kind` (whose data has `key` = `value`, when given) is waiting, retrying
 * or running in the app's queue (the pg-boss job table, on either database): the work queued
 * before is done, whatever it found to do. Throws after `timeoutMs`.
 */
export async function settledJobs(
  t: Pick<TestApp, 'app'>,
  kind: string,
  match: { key: string; value: string } | null = null,
  timeoutMs = 20_000,
): Promise<void> {
  const connection = t.app.orm.em.getConnection();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await connection.execute<{ open: number }[]>(
      `select count(*)::int as open from "${JOB_SCHEMA}".job
        where name = ? and state in ('created', 'retry', 'active')${match ? ' and data ->> ? = ?' : ''}`,
      [kind, ...(match ? [match.key, match.value] : [])],
    );
    if (row.open === 0) return;
    if (Date.now() > deadline) throw new Error(`${kind} jobs still open after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the import of an uploaded file's tags, cover and chapters (file-import) is done. */
export const importedFile = (t: Pick<TestApp, 'app'>, fileId: string) =>
  settledJobs(t, 'file-import', { key: 'fileId', value: fileId });
