import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { AppConfig } from '../../config.js';
import { HashLost, hashThread, type HashFeed } from './hash-thread.js';

/**
 * SHA-256 of a chunked upload's leading chunks, fed while they are written, so finalize reads
 * back only what arrived out of order. Kept per app (keyed by its config) and lost on restart:
 * then finalize simply hashes the whole file. Any rewrite of a chunk already hashed drops it, and
 * two writes of one chunk at once keep it from taking that chunk in, so the digest always
 * describes the bytes on disk. The hashing itself runs on the hash thread.
 */
interface RunningHash {
  /** The first chunk index not yet in the state. */
  next: number;
  /** The state on the hash thread holding chunks [0, next). */
  stateId: number;
  /** The writes under way, by chunk index. */
  writes: Map<number, Set<ChunkHashing>>;
}

/** One write of a chunk, as the running hash sees it. */
export interface ChunkHashing {
  index: number;
  /** What to feed the chunk's bytes to: only for the next chunk in order. */
  feed?: HashFeed;
  /** Another write of the same chunk overlapped this one: the bytes on disk may be a mix. */
  overlapped: boolean;
}

const byApp = new WeakMap<AppConfig, Map<string, RunningHash>>();

function states(config: AppConfig): Map<string, RunningHash> {
  let map = byApp.get(config);
  if (!map) byApp.set(config, (map = new Map()));
  return map;
}

export function startRunningHash(config: AppConfig, uploadId: string): void {
  states(config).set(uploadId, { next: 0, stateId: hashThread.fork(null).id, writes: new Map() });
}

export function dropRunningHash(config: AppConfig, uploadId: string): void {
  const state = states(config).get(uploadId);
  if (!state) return;
  states(config).delete(uploadId);
  hashThread.drop(state.stateId);
}

/**
 * Called before a chunk is written, for every write: a feed when the chunk is the next one in
 * order. A rewrite of a chunk already hashed drops the hash.
 */
export function chunkWriteBegins(config: AppConfig, uploadId: string, index: number): ChunkHashing {
  const state = states(config).get(uploadId);
  const write: ChunkHashing = { index, overlapped: false };
  if (!state) return write;
  if (index < state.next) {
    dropRunningHash(config, uploadId);
    return write;
  }
  const others = state.writes.get(index) ?? new Set();
  for (const other of others) other.overlapped = write.overlapped = true;
  others.add(write);
  state.writes.set(index, others);
  if (index === state.next) write.feed = hashThread.fork(state.stateId);
  return write;
}

/**
 * Called once a write of a chunk has ended, complete or not. Only a complete write of the next
 * chunk that no other write of it overlapped moves the hash on: two copies at once (a slow one
 * still arriving when the chunk is sent again) may leave a mix of both on disk, which finalize
 * then reads back instead.
 */
export function chunkWriteEnded(config: AppConfig, uploadId: string, write: ChunkHashing, complete: boolean): void {
  const state = states(config).get(uploadId);
  const others = state?.writes.get(write.index);
  others?.delete(write);
  if (others?.size === 0) state?.writes.delete(write.index);
  if (state && write.feed && complete && !write.overlapped && state.next === write.index) {
    hashThread.drop(state.stateId);
    state.stateId = write.feed.id;
    state.next = write.index + 1;
    return;
  }
  if (write.feed) hashThread.drop(write.feed.id);
}

/** The exact SHA-256 of the assembled file: the running prefix plus the rest read from disk. */
export async function digestUpload(
  config: AppConfig,
  uploadId: string,
  file: string,
  chunkSize: number,
  fileSize: number,
): Promise<string> {
  const state = states(config).get(uploadId);
  try {
    if (state) {
      try {
        return await hashThread.digest(state.stateId, file, Math.min(state.next * chunkSize, fileSize), fileSize);
      } catch (err) {
        if (!(err instanceof HashLost)) throw err;
      }
    }
    return await hashThread.digest(null, file, 0, fileSize);
  } catch (err) {
    if (!(err instanceof HashLost)) throw err;
    // The hash thread failed twice (it cannot start, or dies on this file): hash here instead.
    const hash = createHash('sha256');
    for await (const bytes of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(bytes as Buffer);
    return hash.digest('hex');
  }
}

/** How far the running hash got and its digest so far, or null without one (tests look inside). */
export async function runningHashProgress(
  config: AppConfig,
  uploadId: string,
): Promise<{ next: number; digest: string } | null> {
  const state = states(config).get(uploadId);
  return state ? { next: state.next, digest: await hashThread.digest(state.stateId, '', 0, 0) } : null;
}
