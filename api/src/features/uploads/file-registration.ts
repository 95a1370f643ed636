import { randomUUID } from 'node:crypto';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Caller, Ctx } from '../../context.js';
import { parseInput } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { recheckAdmin } from '../auth/authenticate.js';
import { publishChapterEvent } from '../chapters/chapter-events.js';
import { queueFinalize } from '../chapters/chapter-finalize.js';
import { Chapter, ChapterStatus, SegmentStorage } from '../chapters/chapter.entity.js';
import { putBook, typedOverTags } from '../catalog/book-catalog.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { setCover, type CoverWrite, type ReceivedCover } from '../files/cover-storage.js';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';
import { probeAudio } from '../media/probe.js';
import { chaptersFitting, noEmbeddedMetadata, type EmbeddedMetadata } from './embedded-metadata.js';
import { fileImportJob } from './file-import-job.js';
import { fileDetailsSchema, type FileDetails } from './uploads.schemas.js';
import { UploadStatus, type UploadSession } from './upload-session.entity.js';
import { User } from '../users/user.entity.js';

/** Audio bytes received and complete on disk, not yet a file of the library. */
export interface StagedAudio {
  /** Absolute path; on the same disk as DATA_DIR/audio so the move is a rename. */
  path: string;
  size: number;
  originalName: string;
}

export interface Registration {
  details: FileDetails;
  cover: ReceivedCover | null;
  /** Set when the bytes came through a chunked upload; marked completed in the same commit. */
  session?: UploadSession;
  /** The parts of a book joined into these bytes; marked completed in the same commit. */
  parts?: UploadSession[];
  /**
   * What the file says about itself, when read before (a joined book: its parts' tags and the
   * chapters of the join), stored with the upload. Without it the file's own tags, cover and
   * chapters are read by the file-import job once the upload has answered.
   */
  embedded?: EmbeddedMetadata;
}

function titleFromName(fileName: string): string {
  const base = path.basename(fileName);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).slice(0, 200) || 'Untitled';
}

/**
 * Turns staged bytes into an AudioFile: validates the form, probes the content, moves the bytes
 * under DATA_DIR/audio and commits the file, what the administrator typed or sent, the audit entry
 * (and the upload session) together, then queues the import of the file's own tags, cover and
 * chapters (file-import-job.ts), which fills only what is still empty: what was typed wins, and a
 * tag the file lacks adds nothing. If anything fails before the commit the bytes are moved back to
 * the staged path, so the caller decides whether to keep them (a retry) or remove them.
 */
export async function registerAudioFile(
  ctx: Ctx,
  caller: Caller,
  staged: StagedAudio,
  input: Registration,
): Promise<AudioFile> {
  const details = parseInput(fileDetailsSchema, input.details);
  const probe = await probeAudio(ctx.deps.config, staged.path);
  const embedded = input.embedded ?? noEmbeddedMetadata;
  const cover = input.cover ?? embedded.cover;
  const nameTitle = titleFromName(staged.originalName);
  const { dataDir } = ctx.deps.config;

  const id = randomUUID();
  const storagePath = path.posix.join(storageDirs.audio, `${id}.${probe.extension}`);
  const finalPath = resolveStoredPath(dataDir, storagePath);
  await mkdir(path.dirname(finalPath), { recursive: true });
  await rename(staged.path, finalPath);

  const { em } = ctx;
  let coverWrite: CoverWrite | null = null;
  let registered: AudioFile;
  try {
    const file = em.create(AudioFile, {
      id,
      title: details.title || embedded.title || nameTitle,
      description: details.description || embedded.description || null,
      filename: path.basename(staged.originalName).slice(0, 255) || `${id}.${probe.extension}`,
      storagePath,
      size: staged.size,
      duration: probe.duration,
      mimeType: probe.mimeType,
      isPublic: details.isPublic,
      uploadedBy: em.getReference(User, caller.user.id),
    });
    await putBook(em, file, typedOverTags(details, embedded));
    if (cover) coverWrite = await setCover(em, dataDir, file, cover, details.coverStorageType);
    // Pending like chapters an administrator adds, then queued for finalizing once committed.
    const chapters = chaptersFitting(embedded.chapters, probe.duration).map((chapter, order) =>
      em.create(Chapter, { file, ...chapter, order, status: ChapterStatus.pending }),
    );
    for (const session of [input.session, ...(input.parts ?? [])]) {
      if (session) em.assign(session, { file, status: UploadStatus.completed });
    }
    recordAudit(
      ctx,
      {
        action: 'file.uploaded',
        details: {
          fileId: id,
          title: file.title,
          size: staged.size,
          mimeType: probe.mimeType,
          chunked: !!input.session || !!input.parts,
          ...(input.parts && { parts: input.parts.length }),
        },
      },
      em,
    );
    // The upload may have taken minutes: whoever sent it must still be a signed-in administrator.
    await recheckAdmin(em.fork(), caller);
    await em.flush();
    await coverWrite?.commit(ctx.deps);
    if (chapters.length) publishChapterEvent(ctx.deps.pubSub, id, null, ChapterStatus.pending);
    registered = file;
  } catch (err) {
    await coverWrite?.rollback();
    await rename(finalPath, staged.path);
    throw err;
  }
  await finalizeArrivedChapters(ctx, registered);
  if (!input.embedded) {
    const data = {
      fileId: registered.id,
      nameTitle: details.title ? null : nameTitle,
      coverStorageType: details.coverStorageType,
    };
    await ctx.deps.jobs.send(fileImportJob, data).catch((err: unknown) => {
      // The file is there with what was sent; its tags are not read.
      ctx.deps.logger.warn('upload.import-not-queued', {
        fileId: registered.id,
        message: err instanceof Error ? err.message : String(err),
      });
    });
  }
  return registered;
}

/**
 * The chapters a file arrived with are queued for finalizing once it is committed, into
 * filesystem storage, so they play with no finalize step. The file is there whatever happens
 * here: a queue that refuses leaves them pending, for an administrator's finalize.
 */
async function finalizeArrivedChapters(ctx: Ctx, file: AudioFile): Promise<void> {
  try {
    await queueFinalize(ctx, file.id, SegmentStorage.filesystem);
  } catch (err) {
    ctx.deps.logger.warn('upload.chapters-not-queued', {
      fileId: file.id,
      message: err instanceof Error ? err.message : String(err),
    });
  }
}
