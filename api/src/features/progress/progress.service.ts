import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { RateLimiter } from '../../rate-limits.js';
import { parseId, parseInput } from '../../validation.js';
import { findVisibleFile, visibleFilesCondition } from '../access/visibility.js';
import { requireCaller, requireDeviceCaller } from '../../caller-policy.js';
import { FILE_COLUMNS, toFileSummary, type FileRow, type FileSummary } from '../files/files.service.js';
import { markFinishedSchema, progressListLimitSchema, saveProgressSchema } from './progress.schemas.js';
import type { ListeningProgress } from './progress.types.js';

/** A file counts as finished from this many seconds before its end: closing credits, silence. */
export const FINISHED_WITHIN_SECONDS = 5;
/** Saves allowed per device session per second: a player saves every ~10 s, on pause and on page hide. */
export const PROGRESS_WRITES_PER_SECOND = 4;

/** The progress limit an app keeps in its process's memory (AppDeps). */
export function progressLimits() {
  return {
    /** Listening-progress saves per device session. */
    progressLimiter: new RateLimiter(new RateLimiterMemory({ points: PROGRESS_WRITES_PER_SECOND, duration: 1 })),
  };
}

declare module '../../context.js' {
  interface AppDeps extends ReturnType<typeof progressLimits> {}
}

export interface ProgressRow {
  file_id: string;
  position: number;
  finished: boolean;
  finished_at: string | Date | null;
  updated_at: string | Date;
}

/** The columns of a progress row, as toProgress reads them. */
export const PROGRESS_COLUMNS = 'lp.file_id, lp.position, lp.finished, lp.finished_at, lp.updated_at';

export function toProgress(row: ProgressRow): ListeningProgress {
  return {
    fileId: row.file_id,
    position: row.position,
    finished: row.finished,
    finishedAt: row.finished_at ? new Date(row.finished_at) : null,
    updatedAt: new Date(row.updated_at),
  };
}

/** Stores the caller's position in a file they may see; near the end counts as finished. */
export async function saveProgress(ctx: Ctx, fileId: string, rawInput: unknown): Promise<ListeningProgress> {
  const caller = requireDeviceCaller(ctx);
  const id = parseId(fileId, 'fileId');
  const input = parseInput(saveProgressSchema, rawInput);
  await limitWrites(ctx, caller.session.id);
  return upsertProgress(ctx, id, {
    sql: `case when audio_files.duration > 0 then least(?, audio_files.duration) else ? end`,
    finishedSql: `? or (audio_files.duration > 0 and ? >= audio_files.duration - ?)`,
    params: [input.position, input.position, input.finished ?? false, input.position, FINISHED_WITHIN_SECONDS],
  });
}

/**
 * Marks a file the caller may see finished (the position moves to its end) or not finished (the
 * position moves back to the start, so the next play begins the book again).
 */
export async function markFinished(ctx: Ctx, fileId: string, rawInput: unknown): Promise<ListeningProgress> {
  const caller = requireDeviceCaller(ctx);
  const id = parseId(fileId, 'fileId');
  const { finished } = parseInput(markFinishedSchema, rawInput);
  await limitWrites(ctx, caller.session.id);
  return upsertProgress(ctx, id, {
    sql: finished ? 'greatest(audio_files.duration, 0)' : '0',
    finishedSql: '?',
    params: [finished],
  });
}

async function limitWrites(ctx: Ctx, sessionId: string): Promise<void> {
  if (!(await ctx.deps.progressLimiter.hit(sessionId))) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many progress updates: at most ${PROGRESS_WRITES_PER_SECOND} a second per device. Try again shortly.`,
    );
  }
}

interface ProgressValues {
  /** The position, as SQL over audio_files. */
  sql: string;
  /** Whether it is finished, as SQL over audio_files. */
  finishedSql: string;
  /** The parameters of both, in that order. */
  params: unknown[];
}

/**
 * Writes the caller's progress in one statement: an upsert whose source row exists only when the
 * file exists and the caller may see it (the library's own visibility condition), so a hidden or
 * unknown file answers NOT_FOUND without a separate read. `finished_at` keeps the moment a file
 * first became finished while later saves keep it finished, and is cleared when it is not.
 */
async function upsertProgress(ctx: Ctx, fileId: string, values: ProgressValues): Promise<ListeningProgress> {
  const caller = requireCaller(ctx);
  const visible = visibleFilesCondition(caller);
  const rows = await ctx.em.execute<ProgressRow[]>(
    `insert into listening_progress as lp (user_id, file_id, position, finished, finished_at, updated_at)
     select ?, audio_files.id, v.position, v.finished, case when v.finished then now() end, now()
     from audio_files cross join lateral (select ${values.sql} as position, ${values.finishedSql} as finished) v
     where audio_files.id = ? and (${visible.sql})
     on conflict (user_id, file_id) do update
       set position = excluded.position, finished = excluded.finished,
         finished_at = case when excluded.finished then coalesce(lp.finished_at, excluded.finished_at) end,
         updated_at = excluded.updated_at
     returning ${PROGRESS_COLUMNS}`,
    [caller.user.id, ...values.params, fileId, ...visible.params],
  );
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'Audio file not found');
  return toProgress(rows[0]);
}

/** The caller's position in a file they may see; null when they have not played it. */
export async function getProgress(ctx: Ctx, fileId: string): Promise<ListeningProgress | null> {
  const caller = requireCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  const [row] = await ctx.em.execute<ProgressRow[]>(
    `select ${PROGRESS_COLUMNS} from listening_progress lp where lp.user_id = ? and lp.file_id = ?`,
    [caller.user.id, file.id],
  );
  return row ? toProgress(row) : null;
}

/** A file of a progress shelf, with the caller's progress in it. */
export interface InProgressFile {
  file: FileSummary;
  progress: ListeningProgress;
}

/**
 * "Continue listening": files the caller has started and not finished, most recently played first.
 * Files they may no longer see (a revoked or expired grant) drop out through the same condition as
 * the library.
 */
export async function listInProgress(ctx: Ctx, limit?: number): Promise<InProgressFile[]> {
  const caller = requireCaller(ctx);
  const take = parseInput(progressListLimitSchema, limit);
  const visible = visibleFilesCondition(caller);
  const rows = await ctx.em.execute<(FileRow & ProgressRow)[]>(
    `select ${FILE_COLUMNS}, ${PROGRESS_COLUMNS}
     from listening_progress lp join audio_files on audio_files.id = lp.file_id
     where lp.user_id = ? and not lp.finished and lp.position > 0 and (${visible.sql})
     order by lp.updated_at desc, audio_files.id asc limit ?`,
    [caller.user.id, ...visible.params, take],
  );
  return rows.map((row) => ({ file: toFileSummary(row), progress: toProgress(row) }));
}

/**
 * The "Finished" shelf: files the caller has finished, most recently finished first, among those
 * they may still see; one statement with each file's progress.
 */
export async function listFinished(ctx: Ctx, limit?: number): Promise<InProgressFile[]> {
  const caller = requireCaller(ctx);
  const take = parseInput(progressListLimitSchema, limit);
  const visible = visibleFilesCondition(caller);
  const rows = await ctx.em.execute<(FileRow & ProgressRow)[]>(
    `select ${FILE_COLUMNS}, ${PROGRESS_COLUMNS}
     from listening_progress lp join audio_files on audio_files.id = lp.file_id
     where lp.user_id = ? and lp.finished and (${visible.sql})
     order by lp.finished_at desc nulls last, audio_files.id asc limit ?`,
    [caller.user.id, ...visible.params, take],
  );
  return rows.map((row) => ({ file: toFileSummary(row), progress: toProgress(row) }));
}
