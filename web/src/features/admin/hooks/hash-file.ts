import type { HashWorkerMessage } from './sha256.worker';

/** SHA-256 (hex) of a file, computed in a worker; rejects with an AbortError when cancelled. */
export function hashFile(file: File, onProgress: (hashedBytes: number) => void, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sha256.worker.ts', import.meta.url), { type: 'module' });
    const stop = () => {
      worker.terminate();
      reject(new DOMException('Hashing cancelled', 'AbortError'));
    };
    signal.addEventListener('abort', stop, { once: true });
    worker.onmessage = (event: MessageEvent<HashWorkerMessage>) => {
      const message = event.data;
      if (message.type === 'progress') {
        onProgress(message.hashedBytes);
        return;
      }
      signal.removeEventListener('abort', stop);
      worker.terminate();
      if (message.type === 'done') resolve(message.hash);
      else reject(new Error(message.message));
    };
    worker.onerror = (event) => {
      signal.removeEventListener('abort', stop);
      worker.terminate();
      reject(new Error(event.message || 'Hashing failed'));
    };
    worker.postMessage(file);
  });
}
