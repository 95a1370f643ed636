import type { AppConfig } from '../../config.js';
import { HashLost, hashThread, type HashFeed } from './hash-thread.js';

/**
 * SHA-256 of a chunked upload's leading chunks, fed while they are written, so finalize reads
 * back only what arrived out of order. Kept per app (keyed by its config) and lost on restart:
 * then finalize simply hashes the whole file. Any rewrite of a chunk already hashed drops it,
 * so the digest always describes the bytes on disk. The hashing itself runs on the hash thread.
 */
interface RunningHash {
  /** The first chunk index not yet in the state. */
  next: number;
  /** The state on the hash thread holding chunks [0, next). */
  stateId: number;
}

const byApp = new WeakMap<AppConfig, Map<string, RunningHash>>();

function states(config: AppConfig): Map<string, RunningHash> {
  let map = byApp.get(config);
  if (!map) byApp.set(config, (map = new Map()));
  return map;
}

export function startRunningHash(config: AppConfig, uploadId: string): void {
  states(config).set(uploadId, { next: 0, stateId: hashThread.fork(null).id });
}

export function dropRunningHash(config: AppConfig, uploadId: string): void {
  const state = states(config).get(uploadId);
  if (!state) return;
  states(config).delete(uploadId);
  hashThread.drop(state.stateId);
}

/**
 * Called before a chunk is written: a hash to feed while writing when the chunk is the next one
 * in order, else none; and a rewrite of an already hashed chunk invalidates the state.
 */
export function hashForChunk(config: AppConfig, uploadId: string, index: number): HashFeed | undefined {
  const state = states(config).get(uploadId);
  if (!state) return undefined;
  if (index < state.next) {
    dropRunningHash(config, uploadId);
    return undefined;
  }
  return index === state.next ? hashThread.fork(state.stateId) : undefined;
}

/** Called once the chunk's write ended, with the feed hashForChunk gave it: kept only if complete. */
export function chunkHashed(
  config: AppConfig,
  uploadId: string,
  index: number,
  fed: HashFeed,
  complete: boolean,
): void {
  const state = states(config).get(uploadId);
  if (!complete) return hashThread.drop(fed.id);
  // A concurrent copy of the same chunk got there first: the bytes may differ, trust neither.
  if (!state || state.next !== index) {
    hashThread.drop(fed.id);
    return dropRunningHash(config, uploadId);
  }
  hashThread.drop(state.stateId);
  state.stateId = fed.id;
  state.next = index + 1;
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
  if (state) {
    try {
      return await hashThread.digest(state.stateId, file, Math.min(state.next * chunkSize, fileSize), fileSize);
    } catch (err) {
      if (!(err instanceof HashLost)) throw err;
    }
  }
  return hashThread.digest(null, file, 0, fileSize);
}

/** How far the running hash got and its digest so far, or null without one (tests look inside). */
export async function runningHashProgress(
  config: AppConfig,
  uploadId: string,
): Promise<{ next: number; digest: string } | null> {
  const state = states(config).get(uploadId);
  return state ? { next: state.next, digest: await hashThread.digest(state.stateId, '', 0, 0) } : null;
}
