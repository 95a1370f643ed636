import type { Ctx } from '../../context.js';
import { parseInput } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { publishChapterEvent } from './chapter-events.js';
import { finalizeChapterJob } from './chapter-finalize-job.js';
import { ChapterStatus, type Chapter, type SegmentStorage } from './chapter.entity.js';
import { finalizeSchema } from './chapter.schemas.js';
import { managedFile } from './chapter.service.js';

export interface FinalizeError {
  chapterId: string;
  label: string;
  message: string;
}

export interface FinalizeResult {
  /** Kept for the answer's shape: chapters are encoded after it, so always empty. */
  finalizedChapters: Chapter[];
  errors: FinalizeError[];
  summary: { finalized: number; failed: number; total: number };
  queuedChapters: number;
}

/**
 * Queues every pending chapter of a file to be encrypted into AES-128 HLS by a background job, one
 * job per chapter, and answers at once: the chapters are finalizing, then ready or failed.
 */
export async function finalizeChapters(ctx: Ctx, fileId: string, input: unknown): Promise<FinalizeResult> {
  const file = await managedFile(ctx, fileId);
  const { storageType } = parseInput(finalizeSchema, input ?? {});
  const ids = await queueFinalize(ctx, file.id, storageType);
  recordAudit(ctx, { action: 'chapters.finalized', details: { fileId: file.id, storageType, queued: ids.length } });
  await ctx.em.flush();
  return {
    finalizedChapters: [],
    errors: [],
    summary: { finalized: 0, failed: 0, total: ids.length },
    queuedChapters: ids.length,
  };
}

/**
 * Marks a file's pending chapters finalizing (one statement, so two requests at once cannot both
 * take a chapter) and sends a job for each; returns their ids. Call it after any transaction of
 * the caller's has committed. Also used by uploads for the chapters a file arrives with.
 */
export async function queueFinalize(
  ctx: Pick<Ctx, 'em' | 'deps'>,
  fileId: string,
  storageType: SegmentStorage,
): Promise<string[]> {
  const rows: { id: string }[] = await ctx.em
    .getConnection()
    .execute(
      `update "chapters" set "status" = 'finalizing', "error" = null where "file_id" = ? and "status" = 'pending' returning "id"`,
      [fileId],
      'all',
    );
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return ids;
  try {
    // The chapter's id is the singleton key: a chapter is never queued twice.
    for (const chapterId of ids)
      await ctx.deps.jobs.send(finalizeChapterJob, { chapterId, storageType }, { singletonKey: chapterId });
  } catch (err) {
    // The queue would not take them: they stay pending, to be finalized again.
    await ctx.em
      .getConnection()
      .execute(`update "chapters" set "status" = 'pending' where "id" = any(?) and "status" = 'finalizing'`, [ids]);
    throw err;
  }
  for (const chapterId of ids) publishChapterEvent(ctx.deps.pubSub, fileId, chapterId, ChapterStatus.finalizing, 0);
  return ids;
}
