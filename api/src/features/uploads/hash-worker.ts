import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parentPort } from 'node:worker_threads';

/** What the API thread asks of the hash thread (see hash-thread.ts). */
export type HashRequest =
  | { op: 'fork'; id: number; from: number | null }
  | { op: 'update'; id: number; bytes: ArrayBuffer; size: number }
  | { op: 'drop'; id: number }
  | { op: 'digest'; request: number; from: number | null; file: string; start: number; end: number };

export type HashReply =
  | { op: 'updated'; id: number; size: number; bytes: ArrayBuffer }
  | { op: 'digest'; request: number; hex?: string; lost?: boolean; error?: string };

if (!parentPort) throw new Error('hash-worker runs on a worker thread (see hash-thread.ts)');
const port = parentPort;

/** The states by id; null for one forked from a state this thread never held (it was restarted). */
const states = new Map<number, Hash | null>();

function fork(from: number | null): Hash | null {
  if (from === null) return createHash('sha256');
  return states.get(from)?.copy() ?? null;
}

function reply(message: HashReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

function digest({ request, from, file, start, end }: Extract<HashRequest, { op: 'digest' }>): void {
  const hash = fork(from);
  if (!hash) return reply({ op: 'digest', request, lost: true });
  const done = (error?: Error) =>
    reply(error ? { op: 'digest', request, error: error.message } : { op: 'digest', request, hex: hash.digest('hex') });
  if (start >= end) return done();
  const stream = createReadStream(file, { start, end: end - 1, highWaterMark: 1024 * 1024 });
  stream.on('data', (bytes) => hash.update(bytes));
  stream.once('error', done);
  stream.once('end', () => done());
}

port.on('message', (message: HashRequest) => {
  switch (message.op) {
    case 'fork':
      states.set(message.id, fork(message.from));
      break;
    case 'update':
      states.get(message.id)?.update(new Uint8Array(message.bytes, 0, message.size));
      // The buffer goes back to the API thread for its next batch.
      reply({ op: 'updated', id: message.id, size: message.size, bytes: message.bytes }, [message.bytes]);
      break;
    case 'drop':
      states.delete(message.id);
      break;
    case 'digest':
      digest(message);
      break;
  }
});
