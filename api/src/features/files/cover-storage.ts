/**
 * Cover images, shared by the upload routes (POST /files, chunked finalize) and the file editor
 * (PUT /admin/files/{id}).
 *
 * Exported API:
 * - `COVER_MAX_BYTES` (5242880) and `COVER_TOO_LARGE` / `COVER_NOT_IMAGE` (the spec's messages).
 * - `parseCoverStorageType(value)`: 'file' (also for a blank or missing value) or 'base64' as
 *   `CoverStorage`; anything else is BAD_USER_INPUT.
 * - `receiveCover(stream)`: reads a cover part (a busboy file stream) to its end, at most 5 MB kept
 *   in memory, and checks its magic bytes (JPEG, PNG, GIF, WebP). Resolves `null` for an empty part
 *   (a form with no cover chosen); rejects with PAYLOAD_TOO_LARGE or UNSUPPORTED_MEDIA_TYPE. The
 *   stream is always drained, so the rest of a multipart body keeps flowing.
 * - `setCover(em, dataDir, file, received, storageType)`: creates or replaces the file's Cover
 *   (persisted, not flushed); a `file` cover is written to DATA_DIR/covers first.
 * - `removeCover(em, dataDir, file)`: removes the file's Cover, if any (persisted, not flushed).
 * Both return a `CoverWrite`: call `commit()` after the flush succeeded (deletes a replaced image
 * file) or `rollback()` if it failed (deletes the image file just written), so the disk always
 * matches the database.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';
import type { AudioFile } from './audio-file.entity.js';
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
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

const extensionByMime: Record<ReceivedCover['mimeType'], string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export function parseCoverStorageType(value: unknown): CoverStorage {
  if (value === undefined || value === null || value === '' || value === CoverStorage.file) return CoverStorage.file;
  if (value === CoverStorage.base64) return CoverStorage.base64;
  throw new AppError('BAD_USER_INPUT', "coverStorageType must be 'file' or 'base64'");
}

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

async function removeStored(dataDir: string, relative: string | null | undefined): Promise<void> {
  if (!relative) return;
  await rm(resolveStoredPath(dataDir, relative), { force: true });
}

export async function setCover(
  em: EntityManager,
  dataDir: string,
  file: AudioFile,
  received: ReceivedCover,
  storageType: CoverStorage,
): Promise<CoverWrite> {
  const existing = await em.findOne(Cover, { file: file.id }, { populate: ['base64'] });
  const replacedPath = existing?.storageType === CoverStorage.file ? (existing.path ?? null) : null;
  let writtenPath: string | null = null;
  if (storageType === CoverStorage.file) {
    // A fresh name each time, so the old image survives until the new row is committed.
    writtenPath = path.posix.join(
      storageDirs.covers,
      `${file.id}-${randomBytes(6).toString('hex')}.${extensionByMime[received.mimeType]}`,
    );
    await mkdir(path.dirname(resolveStoredPath(dataDir, writtenPath)), { recursive: true });
    await writeFile(resolveStoredPath(dataDir, writtenPath), received.bytes, { mode: 0o600 });
  }
  const values = {
    storageType,
    mimeType: received.mimeType,
    size: received.bytes.length,
    path: writtenPath,
    base64: storageType === CoverStorage.base64 ? received.bytes.toString('base64') : null,
  };
  const cover = existing ? em.assign(existing, values) : em.create(Cover, { file, ...values, updatedAt: new Date() });
  em.persist(cover);
  return {
    cover,
    commit: () => removeStored(dataDir, replacedPath),
    rollback: () => removeStored(dataDir, writtenPath),
  };
}

export async function removeCover(em: EntityManager, dataDir: string, file: AudioFile): Promise<CoverWrite> {
  const existing = await em.findOne(Cover, { file: file.id });
  if (existing) em.remove(existing);
  const removedPath = existing?.storageType === CoverStorage.file ? (existing.path ?? null) : null;
  return {
    cover: null,
    commit: () => removeStored(dataDir, removedPath),
    rollback: () => Promise.resolve(),
  };
}
