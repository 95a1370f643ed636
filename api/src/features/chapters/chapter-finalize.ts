import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';
import { ffmpegPath } from '../media/ffmpeg.js';
import { publishChapterEvent } from './chapter-events.js';
import { byStart, effectiveEnd } from './chapter-timeline.js';
import { ChapterKey } from './chapter-key.entity.js';
import { ChapterSegment } from './chapter-segment.entity.js';
import { Chapter, ChapterStatus, SegmentStorage } from './chapter.entity.js';
import { finalizeSchema } from './chapter.schemas.js';
import { managedFile } from './chapter.service.js';
import { encodeChapter, type EncodedChapter } from './hls-encode.js';
import { moveSegmentsIntoStore, removeChapterFiles } from './segment-store.js';

/** One ffmpeg per core: each runs single-threaded, so the machine stays busy but not swamped. */
const CONCURRENCY = Math.max(1, Math.min(availableParallelism(), 4));

/** Generous: the encoder runs many times faster than real time, so this only catches a hang. */
export function encodeTimeoutMs(chapterSeconds: number): number {
  return 60_000 + chapterSeconds * 1000;
}

export interface FinalizeError {
  chapterId: string;
  label: string;
  message: string;
}

export interface FinalizeResult {
  finalizedChapters: Chapter[];
  errors: FinalizeError[];
  summary: { finalized: number; failed: number; total: number };
}

/** Files whose chapters this process is finalizing, so a double click does not encode twice. */
const inProgress = new Set<string>();

/**
 * Encrypts every pending chapter of a file into AES-128 HLS, a few at a time. A chapter that
 * fails is marked failed with the reason and the others go on; the result lists both.
 */
export async function finalizeChapters(ctx: Ctx, fileId: string, input: unknown): Promise<FinalizeResult> {
  const file = await managedFile(ctx, fileId);
  const { storageType } = parseInput(finalizeSchema, input ?? {});
  if (inProgress.has(file.id)) throw new AppError('CONFLICT', 'Chapters of this file are already being finalized');
  inProgress.add(file.id);
  try {
    const all = byStart(await ctx.em.find(Chapter, { file }));
    const pending = all.filter((c) => c.status === ChapterStatus.pending);
    const source = resolveStoredPath(ctx.deps.config.dataDir, file.storagePath);
    const sourceExists = (await stat(source).catch(() => null))?.isFile() ?? false;
    const errors: FinalizeError[] = [];
    const finalized: Chapter[] = [];
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const chapter = pending[next++];
        const range = { start: chapter.startTime, end: effectiveEnd(all, all.indexOf(chapter), file.duration) };
        try {
          if (!sourceExists) throw new Error('Source audio file is missing from storage');
          await finalizeOne(ctx, file, chapter, range, source, storageType);
          finalized.push(chapter);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          await markFailed(ctx, chapter, message);
          errors.push({ chapterId: chapter.id, label: chapter.label, message });
        }
        publishChapterEvent(ctx.deps.pubSub, file.id, chapter.id, chapter.status);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
    recordAudit(ctx, {
      action: 'chapters.finalized',
      details: { fileId: file.id, storageType, finalized: finalized.length, failed: errors.length },
    });
    await ctx.em.flush();
    return {
      finalizedChapters: byStart(finalized),
      errors,
      summary: { finalized: finalized.length, failed: errors.length, total: pending.length },
    };
  } finally {
    inProgress.delete(file.id);
  }
}

async function finalizeOne(
  ctx: Ctx,
  file: AudioFile,
  chapter: Chapter,
  range: { start: number; end: number },
  source: string,
  storageType: SegmentStorage,
): Promise<void> {
  const { config } = ctx.deps;
  const tmpRoot = resolveStoredPath(config.dataDir, storageDirs.tmp);
  await mkdir(tmpRoot, { recursive: true });
  const workDir = await mkdtemp(path.join(tmpRoot, 'finalize-'));
  try {
    const encoded = await encodeChapter({
      ffmpeg: ffmpegPath(config),
      source,
      startTime: range.start,
      duration: range.end - range.start,
      workDir,
      timeoutMs: encodeTimeoutMs(range.end - range.start),
    });
    await storeEncoded(ctx, file, chapter, encoded, storageType);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Writes key, segments and the ready state in one transaction; files written first are undone on failure. */
async function storeEncoded(
  ctx: Ctx,
  file: AudioFile,
  chapter: Chapter,
  encoded: EncodedChapter,
  storageType: SegmentStorage,
): Promise<void> {
  const { dataDir } = ctx.deps.config;
  const paths =
    storageType === SegmentStorage.filesystem
      ? await moveSegmentsIntoStore(
          dataDir,
          chapter.id,
          encoded.segments.map((s) => s.file),
        )
      : null;
  const datas = paths ? null : await Promise.all(encoded.segments.map((s) => readFile(s.file)));
  try {
    await ctx.em.fork().transactional(async (em) => {
      await em.nativeDelete(ChapterSegment, { chapter: chapter.id });
      await em.nativeDelete(ChapterKey, { chapter: chapter.id });
      const ref = em.getReference(Chapter, chapter.id);
      em.create(ChapterKey, { chapter: ref, key: encoded.key, iv: encoded.iv });
      encoded.segments.forEach((segment, index) =>
        em.create(ChapterSegment, {
          chapter: ref,
          index,
          duration: segment.duration,
          size: segment.size,
          path: paths?.[index] ?? null,
          data: datas?.[index] ?? null,
        }),
      );
      const updated = await em.nativeUpdate(
        Chapter,
        { id: chapter.id, file: file.id, status: ChapterStatus.pending },
        {
          status: ChapterStatus.ready,
          storageType,
          plainSize: encoded.plainSize,
          encryptedSize: encoded.encryptedSize,
          finalizedAt: new Date(),
          playlist: encoded.playlist,
          error: null,
        },
      );
      if (updated !== 1) throw new Error('Chapter changed or was deleted while it was being finalized');
    });
  } catch (err) {
    if (paths) await removeChapterFiles(dataDir, chapter.id);
    throw err;
  }
  await ctx.em.refresh(chapter);
}

async function markFailed(ctx: Ctx, chapter: Chapter, message: string): Promise<void> {
  await ctx.em
    .fork()
    .nativeUpdate(
      Chapter,
      { id: chapter.id, status: ChapterStatus.pending },
      { status: ChapterStatus.failed, error: message.slice(0, 1000) },
    );
  Object.assign(chapter, { status: ChapterStatus.failed, error: message.slice(0, 1000) });
}
