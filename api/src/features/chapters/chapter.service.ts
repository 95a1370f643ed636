import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseId, parseInput } from '../../validation.js';
import { findVisibleFile } from '../access/visibility.js';
import { requireAdmin, requireCaller } from '../../caller-policy.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { publishChapterEvent } from './chapter-events.js';
import { sampleChapterPlan, timelineProblem, type TimelineChapter } from './chapter-timeline.js';
import { Chapter, ChapterStatus } from './chapter.entity.js';
import { createChaptersSchema, updateChapterSchema, type ChapterInput } from './chapter.schemas.js';
import { removeChapterFiles } from './segment-store.js';

export interface ChapterSummary {
  pending: number;
  finalizing: number;
  ready: number;
  failed: number;
  total: number;
}

export const FINALIZED_TIMES_MESSAGE = 'A finalized chapter cannot be changed; delete it and add a new one instead.';
export const FINALIZING_TIMES_MESSAGE =
  'This chapter is being finalized; its times can change once it is ready (delete it instead) or failed.';

/** A file an administrator manages chapters of. */
export async function managedFile(ctx: Ctx, fileId: string): Promise<AudioFile> {
  requireAdmin(ctx);
  const file = await ctx.em.findOne(AudioFile, { id: parseId(fileId, 'fileId') });
  if (!file) throw new AppError('NOT_FOUND', 'Audio file not found');
  return file;
}

export async function findChapter(ctx: Ctx, file: AudioFile, chapterId: string): Promise<Chapter> {
  const chapter = await ctx.em.findOne(Chapter, { id: parseId(chapterId, 'chapterId'), file });
  if (!chapter) throw new AppError('NOT_FOUND', 'Chapter not found');
  return chapter;
}

function ordered(ctx: Ctx, file: AudioFile): Promise<Chapter[]> {
  return ctx.em.find(Chapter, { file }, { orderBy: { order: 'asc', startTime: 'asc' } });
}

/** A file's chapters in order, for anyone who may see the file. */
export async function listChapters(ctx: Ctx, fileId: string): Promise<Chapter[]> {
  const caller = requireCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  return ordered(ctx, file);
}

export async function chapterSummary(ctx: Ctx, fileId: string): Promise<ChapterSummary> {
  const caller = requireCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  const rows = await ctx.em.find(Chapter, { file }, { fields: ['status'] });
  const count = (status: ChapterStatus) => rows.filter((r) => r.status === status).length;
  const summary = {
    pending: count(ChapterStatus.pending),
    finalizing: count(ChapterStatus.finalizing),
    ready: count(ChapterStatus.ready),
    failed: count(ChapterStatus.failed),
  };
  return { ...summary, total: rows.length };
}

function assertTimeline(chapters: readonly TimelineChapter[], duration: number): void {
  const problem = timelineProblem(chapters, duration);
  if (problem) throw new AppError('BAD_USER_INPUT', problem);
}

async function addChapters(ctx: Ctx, file: AudioFile, inputs: readonly ChapterInput[]): Promise<Chapter[]> {
  const existing = await ordered(ctx, file);
  assertTimeline([...existing, ...inputs], file.duration);
  let nextOrder = existing.reduce((max, c) => Math.max(max, c.order + 1), 0);
  const created = inputs.map((input) =>
    ctx.em.create(Chapter, {
      file,
      label: input.label,
      startTime: input.startTime,
      endTime: input.endTime,
      order: input.order ?? nextOrder++,
    }),
  );
  await ctx.em.flush();
  publishChapterEvent(ctx.deps.pubSub, file.id, null, ChapterStatus.pending);
  return created;
}

/** Adds chapters (pending) after checking each against the file and against every other chapter. */
export async function createChapters(ctx: Ctx, fileId: string, input: unknown): Promise<Chapter[]> {
  const file = await managedFile(ctx, fileId);
  const { chapters } = parseInput(createChaptersSchema, input ?? {});
  return addChapters(ctx, file, chapters);
}

/** A sensible set of pending chapters over the whole file; only for a file without chapters. */
export async function createSampleChapters(ctx: Ctx, fileId: string): Promise<Chapter[]> {
  const file = await managedFile(ctx, fileId);
  if ((await ctx.em.count(Chapter, { file })) > 0) {
    throw new AppError('CONFLICT', 'This file already has chapters. Delete them before loading sample chapters.');
  }
  return addChapters(ctx, file, sampleChapterPlan(file.duration));
}

/**
 * Changes a chapter's label or times. Finalization is irreversible: a ready chapter keeps its
 * times (its audio is already cut); a failed one goes back to pending so it can be tried again.
 */
export async function updateChapter(ctx: Ctx, fileId: string, chapterId: string, input: unknown): Promise<Chapter> {
  const file = await managedFile(ctx, fileId);
  const chapter = await findChapter(ctx, file, chapterId);
  const patch = parseInput(updateChapterSchema, input ?? {});
  const next = {
    label: patch.label ?? chapter.label,
    startTime: patch.startTime ?? chapter.startTime,
    endTime: patch.endTime === undefined ? (chapter.endTime ?? null) : patch.endTime,
  };
  const timesChange = next.startTime !== chapter.startTime || next.endTime !== (chapter.endTime ?? null);
  if (chapter.status === ChapterStatus.ready && timesChange) throw new AppError('CONFLICT', FINALIZED_TIMES_MESSAGE);
  if (chapter.status === ChapterStatus.finalizing && timesChange)
    throw new AppError('CONFLICT', FINALIZING_TIMES_MESSAGE);
  const others = (await ordered(ctx, file)).filter((c) => c.id !== chapter.id);
  assertTimeline([...others, next], file.duration);
  Object.assign(chapter, next);
  if (chapter.status === ChapterStatus.failed) Object.assign(chapter, { status: ChapterStatus.pending, error: null });
  await ctx.em.flush();
  publishChapterEvent(ctx.deps.pubSub, file.id, chapter.id, chapter.status);
  return chapter;
}

/** Deletes a chapter with its key and segments (rows cascade; files are removed here). */
export async function deleteChapter(ctx: Ctx, fileId: string, chapterId: string): Promise<boolean> {
  const file = await managedFile(ctx, fileId);
  const chapter = await findChapter(ctx, file, chapterId);
  await ctx.em.remove(chapter).flush();
  await removeChapterFiles(ctx.deps.config.dataDir, chapter.id);
  publishChapterEvent(ctx.deps.pubSub, file.id, chapter.id, null);
  return true;
}
