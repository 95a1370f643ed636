import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../../context.js';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';
import { declareJob, type JobRun } from '../jobs/job-kinds.js';
import { ffmpegPath } from '../media/ffmpeg.js';
import { publishChapterEvent } from './chapter-events.js';
import { byStart, effectiveEnd } from './chapter-timeline.js';
import { ChapterKey } from './chapter-key.entity.js';
import { ChapterSegment } from './chapter-segment.entity.js';
import { Chapter, ChapterStatus, SegmentStorage } from './chapter.entity.js';
import { encodeChapter, type EncodedChapter } from './hls-encode.js';
import { moveSegmentsIntoStore, removeChapterFiles } from './segment-store.js';

/** Generous: the encoder runs many times faster than real time, so this only catches a hang. */
export function encodeTimeoutMs(chapterSeconds: number): number {
  return 60_000 + chapterSeconds * 1000;
}

/** Progress events at most this often per chapter (ffmpeg reports about twice a second). */
const PROGRESS_EVERY_MS = 400;

export interface FinalizeJobData {
  chapterId: string;
  storageType: SegmentStorage;
}

/** The chapter was deleted or changed while it was being finalized: the job ends without a failure. */
class ChapterGone extends Error {}

/**
 * Encrypts one finalizing chapter into AES-128 HLS and marks it ready. A failed attempt is tried
 * again (twice); the last failure marks the chapter failed with the reason. An attempt whose
 * replica died is taken up elsewhere once its heartbeat stops (pg-boss).
 */
export const finalizeChapterJob = declareJob<FinalizeJobData>({
  name: 'chapter-finalize',
  retryLimit: 2,
  exclusive: true,
  // Far above any encode (encodeTimeoutMs stops a hung one first); a dead replica is found by heartbeat.
  expireInSeconds: 6 * 60 * 60,
  async handler(data, run) {
    try {
      await finalizeChapter(data, run);
    } catch (err) {
      if (err instanceof ChapterGone) return;
      if (run.lastAttempt) await markFailed(run.orm.em.fork(), run.deps, data.chapterId, messageOf(err));
      throw err;
    }
  },
  async onGiveUp(data, reason, { orm, deps }) {
    await markFailed(orm.em.fork(), deps, data.chapterId, reason);
  },
});

async function finalizeChapter({ chapterId, storageType }: FinalizeJobData, run: JobRun): Promise<void> {
  const { deps } = run;
  const em = run.orm.em.fork();
  const chapter = await em.findOne(Chapter, { id: chapterId }, { populate: ['file'] });
  if (!chapter || chapter.status !== ChapterStatus.finalizing) return;
  const file = chapter.file;
  const all = byStart(await em.find(Chapter, { file }));
  const start = chapter.startTime;
  const end = effectiveEnd(
    all,
    all.findIndex((c) => c.id === chapter.id),
    file.duration,
  );
  const source = resolveStoredPath(deps.config.dataDir, file.storagePath);
  if (!(await stat(source).catch(() => null))?.isFile()) throw new Error('Source audio file is missing from storage');

  // A clean folder per attempt; what an attempt killed with its replica left behind goes first
  // (its ffmpeg, orphaned, dies writing its progress to a pipe nobody reads).
  const tmpRoot = resolveStoredPath(deps.config.dataDir, storageDirs.tmp);
  await mkdir(tmpRoot, { recursive: true });
  const prefix = `finalize-${chapter.id}-`;
  for (const name of await readdir(tmpRoot)) {
    if (name.startsWith(prefix)) await rm(path.join(tmpRoot, name), { recursive: true, force: true });
  }
  const workDir = await mkdtemp(path.join(tmpRoot, prefix));
  let lastPercent = -1;
  let lastAt = 0;
  const progress = (fraction: number) => {
    const percent = Math.min(99, Math.floor(fraction * 100));
    const now = Date.now();
    if (percent <= lastPercent || now - lastAt < PROGRESS_EVERY_MS) return;
    lastPercent = percent;
    lastAt = now;
    publishChapterEvent(deps.pubSub, file.id, chapter.id, ChapterStatus.finalizing, percent);
  };
  try {
    publishChapterEvent(deps.pubSub, file.id, chapter.id, ChapterStatus.finalizing, 0);
    lastAt = Date.now();
    lastPercent = 0;
    const encoded = await encodeChapter({
      ffmpeg: ffmpegPath(deps.config),
      source,
      startTime: start,
      duration: end - start,
      workDir,
      timeoutMs: encodeTimeoutMs(end - start),
      signal: run.signal,
      onProgress: progress,
    });
    const placed = await placeSegments(deps.config.dataDir, chapter.id, encoded, storageType);
    // Gone before the chapter reads ready: ready means nothing of the work is left.
    await rm(workDir, { recursive: true, force: true });
    await storeEncoded(em, deps, chapter.id, encoded, placed, storageType);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  publishChapterEvent(deps.pubSub, file.id, chapter.id, ChapterStatus.ready, 100);
}

interface PlacedSegments {
  /** Filesystem storage: the stored paths, relative to DATA_DIR. */
  paths: string[] | null;
  /** Database storage: the bytes. */
  datas: Buffer[] | null;
}

/** Moves the segments into the chapter's folder (filesystem) or reads them (database). */
async function placeSegments(
  dataDir: string,
  chapterId: string,
  encoded: EncodedChapter,
  storageType: SegmentStorage,
): Promise<PlacedSegments> {
  const files = encoded.segments.map((s) => s.file);
  if (storageType === SegmentStorage.filesystem) {
    try {
      return { paths: await moveSegmentsIntoStore(dataDir, chapterId, files), datas: null };
    } catch (err) {
      await removeChapterFiles(dataDir, chapterId);
      throw err;
    }
  }
  return { paths: null, datas: await Promise.all(files.map((file) => readFile(file))) };
}

/** Writes key, segments and the ready state in one transaction; files placed first are undone on failure. */
async function storeEncoded(
  em: EntityManager,
  deps: AppDeps,
  chapterId: string,
  encoded: EncodedChapter,
  { paths, datas }: PlacedSegments,
  storageType: SegmentStorage,
): Promise<void> {
  const { dataDir } = deps.config;
  try {
    await em.fork().transactional(async (tx) => {
      await tx.nativeDelete(ChapterSegment, { chapter: chapterId });
      await tx.nativeDelete(ChapterKey, { chapter: chapterId });
      const ref = tx.getReference(Chapter, chapterId);
      tx.create(ChapterKey, { chapter: ref, key: encoded.key, iv: encoded.iv });
      encoded.segments.forEach((segment, index) =>
        tx.create(ChapterSegment, {
          chapter: ref,
          index,
          duration: segment.duration,
          size: segment.size,
          path: paths?.[index] ?? null,
          data: datas?.[index] ?? null,
        }),
      );
      const updated = await tx.nativeUpdate(
        Chapter,
        { id: chapterId, status: ChapterStatus.finalizing },
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
      if (updated !== 1) throw new ChapterGone('Chapter changed or was deleted while it was being finalized');
    });
  } catch (err) {
    if (paths) await removeChapterFiles(dataDir, chapterId);
    throw err;
  }
}

/** Marks a chapter still finalizing as failed with the reason, and says so to admin screens. */
async function markFailed(em: EntityManager, deps: AppDeps, chapterId: string, message: string): Promise<void> {
  const chapter = await em.findOne(Chapter, { id: chapterId, status: ChapterStatus.finalizing }, { fields: ['file'] });
  if (!chapter) return;
  const updated = await em.nativeUpdate(
    Chapter,
    { id: chapterId, status: ChapterStatus.finalizing },
    { status: ChapterStatus.failed, error: message.slice(0, 1000) },
  );
  if (updated === 1) publishChapterEvent(deps.pubSub, chapter.file.id, chapterId, ChapterStatus.failed);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
