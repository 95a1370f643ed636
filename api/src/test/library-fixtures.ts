import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FileAccess } from '../features/access/file-access.entity.js';
import { ChapterSegment } from '../features/chapters/chapter-segment.entity.js';
import { Chapter, ChapterStatus, SegmentStorage } from '../features/chapters/chapter.entity.js';
import { AudioFile } from '../features/files/audio-file.entity.js';
import { Cover, CoverStorage } from '../features/files/cover.entity.js';
import type { TestApp } from './harness.js';

/** The smallest valid PNG (1x1), for cover tests. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export interface FileOptions {
  title?: string;
  description?: string | null;
  filename?: string;
  isPublic?: boolean;
  duration?: number;
  size?: number;
  createdAt?: Date;
}

function writeStored(t: TestApp, relative: string, bytes: Buffer): void {
  const full = path.join(t.config.dataDir, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, bytes);
}

/** Audio files straight in the database, with a few bytes on disk standing in for the audio. */
export async function createAudioFiles(t: TestApp, count: number, options: FileOptions = {}): Promise<AudioFile[]> {
  const em = t.app.orm.em.fork();
  const base = Date.now();
  const files = Array.from({ length: count }, (_, i) => {
    const file = em.create(AudioFile, {
      title: options.title ?? `Track ${i + 1}`,
      description: options.description === undefined ? `Description ${i + 1}` : options.description,
      filename: options.filename ?? `track-${i + 1}.mp3`,
      storagePath: '',
      size: options.size ?? 1000,
      duration: options.duration ?? 120,
      mimeType: 'audio/mpeg',
      isPublic: options.isPublic ?? false,
      createdAt: options.createdAt ?? new Date(base - i * 1000),
    });
    file.storagePath = `audio/${file.id}.mp3`;
    writeStored(t, file.storagePath, Buffer.from('ID3 fake audio'));
    return file;
  });
  await em.persist(files).flush();
  return files;
}

export async function createAudioFile(t: TestApp, options: FileOptions = {}): Promise<AudioFile> {
  const [file] = await createAudioFiles(t, 1, options);
  return file;
}

/** A grant straight in the database; `expiresAt` in the past makes it expired. */
export async function grantFile(
  t: TestApp,
  userId: string,
  fileIds: string[],
  options: { expiresAt?: Date | null; canView?: boolean } = {},
): Promise<FileAccess[]> {
  const em = t.app.orm.em.fork();
  const grants = fileIds.map((fileId) =>
    em.create(FileAccess, {
      user: userId,
      file: fileId,
      canView: options.canView ?? true,
      expiresAt: options.expiresAt ?? null,
    }),
  );
  await em.persist(grants).flush();
  return grants;
}

/** A cover stored as a file under DATA_DIR/covers, or inline as base64. */
export async function addCover(
  t: TestApp,
  fileId: string,
  storageType: CoverStorage,
  bytes: Buffer = PNG_BYTES,
): Promise<Cover> {
  const em = t.app.orm.em.fork();
  const relative = storageType === CoverStorage.file ? `covers/${fileId}.png` : null;
  if (relative) writeStored(t, relative, bytes);
  const cover = em.create(Cover, {
    file: fileId,
    storageType,
    mimeType: 'image/png',
    size: bytes.length,
    path: relative,
    base64: storageType === CoverStorage.base64 ? bytes.toString('base64') : null,
    updatedAt: new Date(),
  });
  await em.persist(cover).flush();
  return cover;
}

/** A ready chapter with one encrypted segment on disk under DATA_DIR/chapters/<chapterId>/. */
export async function addChapter(
  t: TestApp,
  fileId: string,
  options: { label?: string; order?: number; startTime?: number } = {},
): Promise<Chapter> {
  const em = t.app.orm.em.fork();
  const chapter = em.create(Chapter, {
    file: fileId,
    label: options.label ?? 'Chapter',
    startTime: options.startTime ?? 0,
    order: options.order ?? 0,
    status: ChapterStatus.ready,
    storageType: SegmentStorage.filesystem,
  });
  const segmentPath = `chapters/${chapter.id}/0.ts`;
  writeStored(t, segmentPath, Buffer.from('encrypted segment'));
  em.persist(chapter);
  em.persist(em.create(ChapterSegment, { chapter, index: 0, duration: 6, size: 17, path: segmentPath }));
  await em.flush();
  return chapter;
}
