import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { RateLimiter } from '../../rate-limits.js';
import { parseId, parseInput } from '../../validation.js';
import { findVisibleFile, visibleFilesCondition } from '../access/visibility.js';
import { requireCaller, requireDeviceCaller } from '../../caller-policy.js';
import { FILE_COLUMNS, toFileSummary, type FileRow, type FileSummary } from '../files/files.service.js';
import { inProgressLimitSchema, saveProgressSchema } from './progress.schemas.js';
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
  updated_at: string | Date;
}

export function toProgress(row: ProgressRow): ListeningProgress {
  return {
    fileId: row.file_id,
    position: row.position,
    finished: row.finished,
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * Stores the caller's position in a file in one statement: an upsert whose source row exists only
 * when the file exists and the caller may see it (the library's own visibility condition), so a
 * hidden or unknown file answers NOT_FOUND without a separate read.
 */
export async function saveProgress(ctx: Ctx, fileId: string, rawInput: unknown): Promise<ListeningProgress> {
  const caller = requireDeviceCaller(ctx);
  const id = parseId(fileId, 'fileId');
  const input = parseInput(saveProgressSchema, rawInput);
  if (!(await ctx.deps.progressLimiter.hit(caller.session.id))) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many progress updates: at most ${PROGRESS_WRITES_PER_SECOND} a second per device. Try again shortly.`,
    );
  }
  const visible = visibleFilesCondition(caller);
  const rows = await ctx.em.execute<ProgressRow[]>(
    `insert into listening_progress (user_id, file_id, position, finished, updated_at)
     select ?, audio_files.id,
       case when audio_files.duration > 0 then least(?, audio_files.duration) else ? end,
       ? or (audio_files.duration > 0 and ? >= audio_files.duration - ?),
       now()
     from audio_files where audio_files.id = ? and (${visible.sql})
     on conflict (user_id, file_id) do update
       set position = excluded.position, finished = excluded.finished, updated_at = excluded.updated_at
     returning file_id, position, finished, updated_at`,
    [
      caller.user.id,
      input.position,
      input.position,
      input.finished ?? false,
      input.position,
      FINISHED_WITHIN_SECONDS,
      id,
      ...visible.params,
    ],
  );
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'Audio file not found');
  return toProgress(rows[0]);
}

/** The caller's position in a file they may see; null when they have not played it. */
export async function getProgress(ctx: Ctx, fileId: string): Promise<ListeningProgress | null> {
  const caller = requireCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  const [row] = await ctx.em.execute<ProgressRow[]>(
    `select file_id, position, finished, updated_at from listening_progress where user_id = ? and file_id = ?`,
    [caller.user.id, file.id],
  );
  return row ? toProgress(row) : null;
}

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
  const take = parseInput(inProgressLimitSchema, limit);
  const visible = visibleFilesCondition(caller);
  const rows = await ctx.em.execute<(FileRow & ProgressRow)[]>(
    `select ${FILE_COLUMNS}, lp.file_id, lp.position, lp.finished, lp.updated_at
     from listening_progress lp join audio_files on audio_files.id = lp.file_id
     where lp.user_id = ? and not lp.finished and lp.position > 0 and (${visible.sql})
     order by lp.updated_at desc, audio_files.id asc limit ?`,
    [caller.user.id, ...visible.params, take],
  );
  return rows.map((row) => ({ file: toFileSummary(row), progress: toProgress(row) }));
}
