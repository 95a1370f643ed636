import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import {
  lstat,
  lutimes,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';

/**
 * A chunked upload on disk, DATA_DIR/uploads/<id>/:
 * - `data`: the file itself; each chunk is written straight at its offset, so finalize needs
 *   no assembly (renamed to `data.finalizing` while a finalize holds it, which also locks out
 *   a second finalize and late chunks, across processes sharing the disk);
 * - `chunks/<index>`: a marker that exists only once that chunk's bytes were fully written.
 *   The markers are the source of truth for which chunks the server holds, also after a restart.
 * - `chunks/<index>.writing-<uuid>`: one per request writing that chunk, made before it opens
 *   `data` and renamed to `<index>` once its bytes are complete (removed if they are not), so a
 *   finalize can see a write still under way, also one from another process.
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

/**
 * A write of one chunk. The request's `.writing-` marker exists before `data` is opened, and the
 * chunk stops counting as held until `finish`: a write that fails leaves it missing, for resending.
 * The marker names its writer (where it runs, its pid, this run of it), so a finalize can tell a
 * write under way from one a killed process left; for a writer it cannot check (another host or
 * container) the marker's time, renewed every few seconds while the write lasts, tells instead.
 * It is a symbolic link whose target is that name, as editors make lock files: one system call
 * makes it, content and all, where a file took three (open, write, close), each a thread-pool trip
 * that took up to 2 ms on a busy disk, on every chunk. Where links cannot be made it is a file.
 */
export interface ChunkWrite {
  finish(complete: boolean): Promise<void>;
}

export interface Writer {
  /** The process namespace it runs in: host name, boot and pid namespace (containers share a host). */
  place: string;
  pid: number;
  /** This run of the process: a restarted container may have the same pid. */
  run: string;
}

function readOr(read: () => string): string {
  try {
    return read().trim();
  } catch {
    return '';
  }
}

/** This process, as the markers it writes name it. */
export const thisWriter: Writer = {
  place: [
    hostname(),
    readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
    readOr(() => readlinkSync('/proc/self/ns/pid')),
  ].join(' '),
  pid: process.pid,
  run: randomUUID(),
};
const HEARTBEAT_MS = 5_000;
const STALE_WRITE_MS = 6 * HEARTBEAT_MS;

const ignoreMissing = (err: NodeJS.ErrnoException) => {
  if (err.code !== 'ENOENT') throw err;
};

/** Where links cannot be made (some network and FAT file systems), a file says the same. */
const NO_LINKS = new Set(['EPERM', 'EOPNOTSUPP', 'ENOSYS']);

function makeMarker(file: string): Promise<void> {
  const writer = JSON.stringify(thisWriter);
  return symlink(writer, file).catch((err: NodeJS.ErrnoException) => {
    if (!NO_LINKS.has(err.code ?? '')) throw err;
    return writeFile(file, writer);
  });
}

/** The writer a marker names: a link's target, or a file's text (see makeMarker); null once gone. */
function readMarker(file: string): Promise<string | null> {
  return readlink(file)
    .catch((err: NodeJS.ErrnoException) => (err.code === 'EINVAL' ? readFile(file, 'utf8') : null))
    .catch(() => null);
}

export async function beginChunkWrite(paths: UploadPaths, index: number): Promise<ChunkWrite> {
  const writing = `${paths.marker(index)}.writing-${randomUUID()}`;
  // Both before `data` is opened, in either order: a finalize that saw the chunk held and then
  // took `data` leaves this write nothing to open. One unlink (rm would stat first): this runs per
  // chunk. Should it fail, the new marker holds finalize off until it goes stale unrenewed.
  await Promise.all([makeMarker(writing), unlink(paths.marker(index)).catch(ignoreMissing)]);
  const heartbeat = setInterval(() => {
    const now = new Date();
    lutimes(writing, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    finish(complete) {
      clearInterval(heartbeat);
      // After finalize took the upload (or a cancel removed it), there is nothing left to mark.
      return (complete ? rename(writing, paths.marker(index)) : unlink(writing)).catch(ignoreMissing);
    },
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the writer a marker names may still be writing. */
function writerAlive(marker: string): boolean {
  let writer: Partial<Writer>;
  try {
    writer = JSON.parse(marker) as Partial<Writer>;
  } catch {
    return true; // a marker file half written (see makeMarker): its writer was just starting
  }
  if (writer.place !== thisWriter.place || typeof writer.pid !== 'number') return true;
  if (writer.pid === thisWriter.pid) return writer.run === thisWriter.run;
  return isRunning(writer.pid);
}

/** Whether a request may still be writing into this upload's data file. */
export async function chunkWritesUnderWay(paths: UploadPaths): Promise<boolean> {
  const names = await readdir(paths.chunks).catch(() => []);
  const since = Date.now() - STALE_WRITE_MS;
  for (const name of names.filter((n) => n.includes('.writing-'))) {
    const file = path.join(paths.chunks, name);
    const written = await lstat(file).catch(() => null);
    if (!written || written.mtimeMs <= since) continue;
    const marker = await readMarker(file);
    if (marker !== null && writerAlive(marker)) return true;
  }
  return false;
}
