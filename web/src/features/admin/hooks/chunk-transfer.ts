import { xhrRequest } from './xhr-request';

/** Spec section 9: 5 MB chunks, up to 3 retries waiting 1, 2 then 3 s, 60 s per chunk. */
export const CHUNK_SIZE = 5 * 1024 * 1024;
const RETRY_WAITS_MS = [1000, 2000, 3000];
const CHUNK_TIMEOUT_MS = 60_000;

export const isAbort = (err: unknown): boolean => err instanceof DOMException && err.name === 'AbortError';

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface ChunkTarget {
  uploadId: string;
  file: File;
  totalChunks: number;
}

/** Sends one chunk, retrying transient failures; a pause (abort) is never retried. */
export async function sendChunk(
  target: ChunkTarget,
  index: number,
  signal: AbortSignal,
  onProgress: (sentBytes: number) => void,
): Promise<void> {
  const { uploadId, file, totalChunks } = target;
  const blob = file.slice(index * CHUNK_SIZE, Math.min(file.size, (index + 1) * CHUNK_SIZE));
  for (let attempt = 0; ; attempt += 1) {
    const form = new FormData();
    form.append('chunk', blob, file.name);
    try {
      await xhrRequest({
        method: 'POST',
        path: '/audio/upload/chunk',
        body: form,
        headers: {
          'X-Upload-ID': uploadId,
          'X-Chunk-Index': String(index),
          'X-Total-Chunks': String(totalChunks),
          'X-File-Name': encodeURIComponent(file.name),
          'X-File-Size': String(file.size),
        },
        timeoutMs: CHUNK_TIMEOUT_MS,
        signal,
        onProgress: (sent, total) => onProgress(Math.min(blob.size, (sent / Math.max(total, 1)) * blob.size)),
      });
      onProgress(blob.size);
      return;
    } catch (err) {
      if (isAbort(err) || attempt >= RETRY_WAITS_MS.length) throw err;
      onProgress(0);
      await wait(RETRY_WAITS_MS[attempt], signal);
    }
  }
}

export function chunkBytes(file: File, index: number): number {
  return Math.min(CHUNK_SIZE, file.size - index * CHUNK_SIZE);
}
