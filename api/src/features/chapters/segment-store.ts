import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';

/** Stored path (relative to DATA_DIR) of a segment on the filesystem. */
export function segmentStoredPath(chapterId: string, index: number): string {
  return path.join(storageDirs.chapters, chapterId, `${index}.ts`);
}

/** Moves freshly encoded segments into a chapter's own folder; returns their stored paths. */
export async function moveSegmentsIntoStore(
  dataDir: string,
  chapterId: string,
  files: readonly string[],
): Promise<string[]> {
  const dir = resolveStoredPath(dataDir, path.join(storageDirs.chapters, chapterId));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const stored: string[] = [];
  for (const [index, file] of files.entries()) {
    const relative = segmentStoredPath(chapterId, index);
    await rename(file, resolveStoredPath(dataDir, relative));
    stored.push(relative);
  }
  return stored;
}

/** Removes a chapter's segment folder, if it has one. Callers deleting chapters or files use it. */
export async function removeChapterFiles(dataDir: string, chapterId: string): Promise<void> {
  await rm(resolveStoredPath(dataDir, path.join(storageDirs.chapters, chapterId)), { recursive: true, force: true });
}
