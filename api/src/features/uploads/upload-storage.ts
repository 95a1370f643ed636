import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import type { Hash } from 'node:crypto';
import path from 'node:path';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';

/**
 * A chunked upload on disk, DATA_DIR/uploads/<id>/:
 * - `data`: the file itself; each chunk is written straight at its offset, so finalize needs
 *   no assembly (renamed to `data.finalizing` while a finalize holds it, which also locks out
 *   a second finalize and late chunks, across processes sharing the disk);
 * - `chunks/<index>`: an empty marker created only after that chunk's bytes were fully written.
 *   The markers are the source of truth for which chunks the server holds, also after a restart.
 */
export function uploadPaths(dataDir: string, uploadId: string) {
  const dir = resolveStoredPath(dataDir, path.posix.join(storageDirs.uploads, uploadId));
  return {
    dir,
    data: path.join(dir, 'data'),
    finalizing: path.join(dir, 'data.finalizing'),
    chunks: path.join(dir, 'chunks'),
    marker: (index: number) => path.join(dir, 'chunks', String(index)),
  };
}

export type UploadPaths = ReturnType<typeof uploadPaths>;

export async function createUploadDir(paths: UploadPaths): Promise<void> {
  await mkdir(paths.chunks, { recursive: true, mode: 0o700 });
  await writeFile(paths.data, '', { mode: 0o600 });
}

export async function removeUploadDir(paths: UploadPaths): Promise<void> {
  await rm(paths.dir, { recursive: true, force: true });
}

/** The chunk indexes the server really holds, in order. */
export async function uploadedChunks(paths: UploadPaths, totalChunks: number): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(paths.chunks);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((i) => i < totalChunks)
    .sort((a, b) => a - b);
}

export async function markChunk(paths: UploadPaths, index: number): Promise<void> {
  await writeFile(paths.marker(index), '');
}

export async function unmarkChunk(paths: UploadPaths, index: number): Promise<void> {
  // One unlink (rm would stat first): this runs before every chunk.
  await unlink(paths.marker(index)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** Feeds bytes [start, end) of a file into a hash, streaming. */
export function hashFileRange(file: string, start: number, end: number, hash: Hash): Promise<void> {
  if (start >= end) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stream = createReadStream(file, { start, end: end - 1, highWaterMark: 1024 * 1024 });
    stream.on('data', (chunk) => hash.update(chunk));
    stream.once('error', reject);
    stream.once('end', () => resolve());
  });
}
