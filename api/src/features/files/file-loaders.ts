import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Chapter } from '../chapters/chapter.entity.js';
import type { CoverSize } from './cover-thumbnail.js';
import { CoverStorage } from './cover.entity.js';
import { inList } from '../../sql-condition.js';

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/**
 * Batch loaders for a file's cover and chapters: one query per kind for a whole list of files. The
 * cover reads are plain SQL: they run for every library page (see sql-condition.ts).
 */
export function createFileLoaders(em: EntityManager) {
  return {
    /** How the cover is stored, without its bytes; null when the file has none. */
    coverStorageByFile: new DataLoader<string, CoverStorage | null>(async (fileIds) => {
      const files = inList('file_id', fileIds);
      const rows = await em.execute<{ file_id: string; storage_type: CoverStorage }[]>(
        `select file_id, storage_type from covers where ${files.sql}`,
        files.params,
      );
      const byFile = new Map(rows.map((r) => [r.file_id, r.storage_type]));
      return fileIds.map((id) => byFile.get(id) ?? null);
    }),
    /** Inline covers as data URLs, read only for a single file's answer (lists carry coverUrl). */
    coverDataUrlByFile: new DataLoader<string, string | null>(async (fileIds) => {
      const files = inList('file_id', fileIds);
      const rows = await em.execute<{ file_id: string; mime_type: string; base64: string | null }[]>(
        `select file_id, mime_type, base64 from covers where ${files.sql} and storage_type = ?`,
        [...files.params, CoverStorage.base64],
      );
      const byFile = new Map(rows.map((r) => [r.file_id, r.base64 ? `data:${r.mime_type};base64,${r.base64}` : null]));
      return fileIds.map((id) => byFile.get(id) ?? null);
    }),
    chaptersByFile: new DataLoader<string, Chapter[]>(async (fileIds) => {
      const chapters = await em.find(
        Chapter,
        { file: { $in: [...fileIds] } },
        { orderBy: { order: 'asc', startTime: 'asc', id: 'asc' } },
      );
      const byFile = groupBy(chapters, (c) => c.file.id);
      return fileIds.map((id) => byFile.get(id) ?? []);
    }),
  };
}
export type FileLoaders = ReturnType<typeof createFileLoaders>;

/** The REST URL of a file's cover, whichever the storage, or of its card-sized copy; null when it has none. */
export function coverUrlOf(fileId: string, storage: CoverStorage | null, size: CoverSize = 'full'): string | null {
  if (storage === null) return null;
  return `/api/v1/files/cover/${fileId}${size === 'thumbnail' ? '?size=thumbnail' : ''}`;
}

/** The spec's coverImagePath: set for file-stored covers only, as older clients expect. */
export function coverImagePathOf(fileId: string, storage: CoverStorage | null): string | null {
  return storage === CoverStorage.file ? `/api/v1/files/cover/${fileId}` : null;
}

declare module '../../graphql/loaders.js' {
  interface Loaders extends ReturnType<typeof createFileLoaders> {}
}
