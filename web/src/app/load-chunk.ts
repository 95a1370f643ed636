import type { ComponentType } from 'react';

/** How long a page's code may take to arrive (spec section 8). */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(
    readonly type: 'missing' | 'timeout',
    readonly address: string,
  ) {
    super(`Loading chunk failed (${type}: ${address})`);
    this.name = 'ChunkLoadError';
  }
}

/**
 * A page's code, loaded on demand. A load that fails, or takes longer than CHUNK_TIMEOUT_MS,
 * rejects with a ChunkLoadError naming the failure type and the address (the browser's message
 * for a failed import carries the script's URL; `page` stands in where it does not).
 */
export function loadChunk<T>(load: () => Promise<T>, page: string): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ChunkLoadError('timeout', page)), CHUNK_TIMEOUT_MS);
      load()
        .then(resolve, (err: unknown) => {
          const url = err instanceof Error ? /\bhttps?:\/\/\S+/.exec(err.message)?.[0] : undefined;
          reject(new ChunkLoadError('missing', url ?? page));
        })
        .finally(() => clearTimeout(timer));
    });
}

/** A route's `lazy`: the named page component of a module loaded by loadChunk. */
export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return loadChunk(() => load().then((m) => ({ Component: m[name] as ComponentType })), name);
}
