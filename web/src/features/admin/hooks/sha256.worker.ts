// SHA-256 of a whole file, off the main thread. crypto.subtle has no incremental API, so the
// file is read slice by slice into @noble/hashes' incremental hasher: memory stays flat and
// the page stays responsive however large the file.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export type HashWorkerMessage =
  { type: 'progress'; hashedBytes: number } | { type: 'done'; hash: string } | { type: 'error'; message: string };

const SLICE_BYTES = 4 * 1024 * 1024;

interface WorkerScope {
  onmessage: ((event: MessageEvent<File>) => void) | null;
  postMessage: (message: HashWorkerMessage) => void;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  const file = event.data;
  void (async () => {
    try {
      const hasher = sha256.create();
      for (let offset = 0; offset < file.size; offset += SLICE_BYTES) {
        const slice = await file.slice(offset, offset + SLICE_BYTES).arrayBuffer();
        hasher.update(new Uint8Array(slice));
        scope.postMessage({ type: 'progress', hashedBytes: Math.min(file.size, offset + SLICE_BYTES) });
      }
      scope.postMessage({ type: 'done', hash: bytesToHex(hasher.digest()) });
    } catch (err) {
      scope.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  })();
};
