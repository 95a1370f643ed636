/**
 * Cover images, shared by the upload routes (POST /files, chunked finalize) and the file editor
 * (PUT /admin/files/{id}).
 *
 * Exported API:
 * - `COVER_MAX_BYTES` (5242880) and `COVER_TOO_LARGE` / `COVER_NOT_IMAGE` (the spec's messages).
 * - `receiveCover(stream)`: reads a cover part (a busboy file stream) to its end, at most 5 MB kept
 *   in memory, and checks its magic bytes (JPEG, PNG, GIF, WebP). Resolves `null` for an empty part
 *   (a form with no cover chosen); rejects with PAYLOAD_TOO_LARGE or UNSUPPORTED_MEDIA_TYPE. The
 *   stream is always drained, so the rest of a multipart body keeps flowing.
 * - `setCover(em, dataDir, file, received, storageType)`: creates or replaces the file's Cover
 *   (persisted, not flushed); a `file` cover is written to DATA_DIR/covers first. Its card-sized
 *   thumbnail is made by a background job (cover-thumbnail-job.ts) that `commit(jobs)` queues;
 *   until it is there, the original is served for the thumbnail.
 * - `removeCover(em, dataDir, file)`: removes the file's Cover, if any (persisted, not flushed).
 * - `storedCoverPaths(cover)`: the image files a cover row points at.
 * Both return a `CoverWrite`: call `commit(jobs)` after the flush succeeded (deletes replaced image
 * files, queues the thumbnail) or `rollback()` if it failed (deletes the image files just written), so the disk always
 * matches the database.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';
import type { AudioFile } from './audio-file.entity.js';
import type { AppDeps } from '../../context.js';
import { coverThumbnailJob } from './cover-thumbnail-job.js';
import { Cover, CoverStorage } from './cover.entity.js';
import { resolveStoredPath, storageDirs } from './storage-paths.js';

export const COVER_MAX_BYTES = 5 * 1024 * 1024;
export const COVER_TOO_LARGE = 'Cover image must be less than 5MB';
export const COVER_NOT_IMAGE = 'Please select an image file (JPG, PNG, etc.)';

export interface ReceivedCover {
  bytes: Buffer;
  mimeType: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
}

export interface CoverWrite {
  cover: Cover | null;
  /** After the flush: removes replaced images and queues the thumbnail (a queue refusing is logged). */
  commit(deps: Pick<AppDeps, 'jobs' | 'logger'>): Promise<void>;
  rollback(): Promise<void>;
}

const extensionByMime: Record<ReceivedCover['mimeType'], string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The image type named by the first bytes; the declared MIME type is never trusted. */
export function sniffImageType(head: Buffer): ReceivedCover['mimeType'] | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  const ascii = head.subarray(0, 12).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

export function receiveCover(stream: Readable): Promise<ReceivedCover | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > COVER_MAX_BYTES) {
        // Keep reading so the rest of the form arrives, but stop holding bytes.
        tooLarge = true;
        parts.length = 0;
        return;
      }
      parts.push(chunk);
    });
    stream.once('error', () => reject(new AppError('BAD_USER_INPUT', 'The cover image was not received completely')));
    stream.once('end', () => {
      if (tooLarge) return reject(new AppError('PAYLOAD_TOO_LARGE', COVER_TOO_LARGE));
      if (size === 0) return resolve(null);
      const bytes = Buffer.concat(parts, size);
      const mimeType = sniffImageType(bytes);
      if (!mimeType) return reject(new AppError('UNSUPPORTED_MEDIA_TYPE', COVER_NOT_IMAGE));
      resolve({ bytes, mimeType });
    });
  });
}

async function removeStored(dataDir: string, relatives: (string | null | undefined)[]): Promise<void> {
  await Promise.all(
    relatives.map((relative) => (relative ? rm(resolveStoredPath(dataDir, relative), { force: true }) : undefined)),
  );
}

/** Writes bytes under DATA_DIR/covers with a fresh name, so an old image survives until its row is replaced. */
async function writeStored(dataDir: string, fileId: string, extension: string, bytes: Buffer): Promise<string> {
  const relative = path.posix.join(storageDirs.covers, `${fileId}-${randomBytes(6).toString('hex')}.${extension}`);
  await mkdir(path.dirname(resolveStoredPath(dataDir, relative)), { recursive: true });
  await writeFile(resolveStoredPath(dataDir, relative), bytes, { mode: 0o600 });
  return relative;
}

/** The image files (original and thumbnail) a cover row points at, relative to DATA_DIR. */
export function storedCoverPaths(cover: Cover | null): string[] {
  if (cover?.storageType !== CoverStorage.file) return [];
  return [cover.path, cover.thumbnailPath].filter((p): p is string => Boolean(p));
}

export async function setCover(
  em: EntityManager,
  dataDir: string,
  file: AudioFile,
  received: ReceivedCover,
  storageType: CoverStorage,
): Promise<CoverWrite> {
  const existing = await em.findOne(Cover, { file: file.id }, { populate: ['base64', 'thumbnail'] });
  const replaced = storedCoverPaths(existing);
  const written: string[] = [];
  const inFiles = storageType === CoverStorage.file;
  try {
    if (inFiles) {
      written.push(await writeStored(dataDir, file.id, extensionByMime[received.mimeType], received.bytes));
    }
  } catch (err) {
    await removeStored(dataDir, written);
    throw err;
  }
  const values = {
    storageType,
    mimeType: received.mimeType,
    size: received.bytes.length,
    path: inFiles ? written[0] : null,
    base64: inFiles ? null : received.bytes.toString('base64'),
    // Made by a job once this is committed (the original stands in until then).
    thumbnailPath: null,
    thumbnail: null,
  };
  const cover = existing ? em.assign(existing, values) : em.create(Cover, { file, ...values, updatedAt: new Date() });
  em.persist(cover);
  return {
    cover,
    async commit({ jobs, logger }) {
      await removeStored(dataDir, replaced);
      // updatedAt is what the flush wrote: the job makes a thumbnail only for this very cover.
      await jobs.send(coverThumbnailJob, { fileId: file.id, updatedAt: cover.updatedAt.toISOString() }).catch((err) => {
        logger.warn('cover.thumbnail-not-queued', { fileId: file.id, message: (err as Error).message });
      });
    },
    rollback: () => removeStored(dataDir, written),
  };
}

export async function removeCover(em: EntityManager, dataDir: string, file: AudioFile): Promise<CoverWrite> {
  const existing = await em.findOne(Cover, { file: file.id });
  if (existing) em.remove(existing);
  const removed = storedCoverPaths(existing);
  return {
    cover: null,
    commit: () => removeStored(dataDir, removed),
    rollback: () => Promise.resolve(),
  };
}
