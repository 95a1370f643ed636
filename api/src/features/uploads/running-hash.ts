import { createHash, type Hash } from 'node:crypto';
import type { AppConfig } from '../../config.js';
import { hashFileRange } from './upload-storage.js';

/**
 * SHA-256 of a chunked upload's leading chunks, fed while they are written, so finalize reads
 * back only what arrived out of order. Kept per app (keyed by its config) and lost on restart:
 * then finalize simply hashes the whole file. Any rewrite of a chunk already hashed drops it,
 * so the digest always describes the bytes on disk.
 */
interface RunningHash {
  /** The first chunk index not yet in `hash`. */
  next: number;
  hash: Hash;
}

const byApp = new WeakMap<AppConfig, Map<string, RunningHash>>();

function states(config: AppConfig): Map<string, RunningHash> {
  let map = byApp.get(config);
  if (!map) byApp.set(config, (map = new Map()));
  return map;
}

export function startRunningHash(config: AppConfig, uploadId: string): void {
  states(config).set(uploadId, { next: 0, hash: createHash('sha256') });
}

export function dropRunningHash(config: AppConfig, uploadId: string): void {
  states(config).delete(uploadId);
}

/**
 * Called before a chunk is written: a hash to feed while writing when the chunk is the next one
 * in order, else none; and a rewrite of an already hashed chunk invalidates the state.
 */
export function hashForChunk(config: AppConfig, uploadId: string, index: number): Hash | undefined {
  const state = states(config).get(uploadId);
  if (!state) return undefined;
  if (index < state.next) {
    dropRunningHash(config, uploadId);
    return undefined;
  }
  return index === state.next ? state.hash.copy() : undefined;
}

/** Called after the chunk was written in full with the hash it fed. */
export function chunkHashed(config: AppConfig, uploadId: string, index: number, fed: Hash): void {
  const state = states(config).get(uploadId);
  // A concurrent copy of the same chunk got there first: the bytes may differ, trust neither.
  if (!state || state.next !== index) return dropRunningHash(config, uploadId);
  state.hash = fed;
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
  const hash = state ? state.hash.copy() : createHash('sha256');
  const from = Math.min(state ? state.next * chunkSize : 0, fileSize);
  await hashFileRange(file, from, fileSize, hash);
  return hash.digest('hex');
}
