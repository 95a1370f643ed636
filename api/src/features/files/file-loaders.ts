import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Chapter } from '../chapters/chapter.entity.js';
import { Cover, CoverStorage } from './cover.entity.js';

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** Batch loaders for a file's cover and chapters: one query per kind for a whole list of files. */
export function createFileLoaders(em: EntityManager) {
  return {
    /** The cover row without its inline bytes. */
    coverByFile: new DataLoader<string, Cover | null>(async (fileIds) => {
      const covers = await em.find(Cover, { file: { $in: [...fileIds] } });
      const byFile = new Map(covers.map((c) => [c.file.id, c]));
      return fileIds.map((id) => byFile.get(id) ?? null);
    }),
    /** Inline covers as data URLs, read only when a client asks for them. */
    coverDataUrlByFile: new DataLoader<string, string | null>(async (fileIds) => {
      const covers = await em.find(
        Cover,
        { file: { $in: [...fileIds] }, storageType: CoverStorage.base64 },
        { populate: ['base64'] },
      );
      const byFile = new Map(covers.map((c) => [c.file.id, c.base64 ? `data:${c.mimeType};base64,${c.base64}` : null]));
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

/** The REST URL of a file-stored cover; inline covers travel as coverImageBase64 instead. */
export function coverImagePathOf(fileId: string, cover: Cover | null): string | null {
  return cover?.storageType === CoverStorage.file ? `/api/v1/files/cover/${fileId}` : null;
}
