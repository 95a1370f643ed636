import { Worker } from 'node:worker_threads';
import type { HashReply, HashRequest } from './hash-worker.js';

/** The digest's starting state is not on the hash thread (it was restarted): hash from scratch. */
export class HashLost extends Error {
  constructor() {
    super('The running hash was lost');
  }
}

/** Bytes sent to the worker at once: one message per MiB rather than per 64 KiB socket read. */
const BATCH_BYTES = 1024 * 1024;
/** The buffers batches travel in, and back once hashed: a batch is under a MiB plus one read. */
const BUFFER_BYTES = 2 * BATCH_BYTES;
/** Buffers kept for reuse: a fresh one per MiB outran the collector (RSS grew 117 MiB in the upload benchmark, 57 with reuse). */
const SPARE_BUFFERS = 8;
/** Bytes a feed may have sent and not yet seen hashed before its writer is asked to wait. */
const MAX_IN_FLIGHT = 4 * BATCH_BYTES;

/** A state on the hash thread being fed bytes from this one, with backpressure. */
export class HashFeed {
  private batch: Buffer[] = [];
  private batched = 0;
  private inFlight = 0;
  private waiting: (() => void)[] = [];

  constructor(
    private readonly thread: HashThread,
    readonly id: number,
  ) {}

  /** Takes bytes; false asks the writer to wait for `drained()` before sending more. */
  write(bytes: Buffer): boolean {
    this.batch.push(bytes);
    this.batched += bytes.length;
    if (this.batched >= BATCH_BYTES) this.send();
    return this.inFlight < MAX_IN_FLIGHT;
  }

  /** Sends what is batched: call once the last bytes were written. */
  end(): void {
    if (this.batched > 0) this.send();
  }

  drained(): Promise<void> {
    if (this.inFlight < MAX_IN_FLIGHT) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** @internal The worker hashed `size` bytes of this feed (or is gone: then `size` is all of them). */
  hashed(size: number): void {
    this.inFlight = Math.max(0, this.inFlight - size);
    if (this.inFlight >= MAX_IN_FLIGHT) return;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private send(): void {
    // A buffer moved to the worker rather than copied again, and moved back for the next batch.
    const bytes = this.thread.buffer(this.batched);
    const view = new Uint8Array(bytes);
    let at = 0;
    for (const part of this.batch) {
      view.set(part, at);
      at += part.length;
    }
    this.inFlight += this.batched;
    this.thread.post({ op: 'update', id: this.id, bytes, size: this.batched }, [bytes]);
    this.batch = [];
    this.batched = 0;
  }
}

/**
 * SHA-256 states computed on a worker thread. On the API's own thread, hashing each 5 MiB chunk
 * held its bytes back from the disk for about 3.5 ms of the 21 ms a chunk took (timed in the upload
 * benchmark); on a worker it runs beside the request on the other core, and a finalize that must
 * hash what arrived out of order reads the file there, not on the thread serving requests.
 *
 * States are numbered here and live on the worker. It handles messages in order, so a state
 * forked from another holds every byte sent to that one before the fork. A state the worker does
 * not hold (it was restarted) forks into a lost state, and a digest of a lost state fails with
 * HashLost rather than describe other bytes. The worker's program is hash-worker.ts.
 */
export class HashThread {
  /** Told when the worker fails: the running hashes it held are lost (finalize reads back instead). */
  onFailure: (err: Error) => void = () => undefined;
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly feeds = new Map<number, HashFeed>();
  private readonly digests = new Map<number, { resolve: (hex: string) => void; reject: (err: Error) => void }>();
  private readonly spare: ArrayBuffer[] = [];

  /** A new state: empty, or a copy of `from` as it will be once the bytes sent to it so far are in. */
  fork(from: number | null): HashFeed {
    const feed = new HashFeed(this, this.nextId++);
    this.feeds.set(feed.id, feed);
    this.post({ op: 'fork', id: feed.id, from });
    return feed;
  }

  /** Frees a state (a feed no longer written to). */
  drop(id: number): void {
    this.feeds.delete(id);
    this.post({ op: 'drop', id });
  }

  /** The hex digest of state `from` (or of nothing) followed by bytes [start, end) of `file`. */
  digest(from: number | null, file: string, start: number, end: number): Promise<string> {
    const request = this.nextId++;
    return new Promise((resolve, reject) => {
      this.digests.set(request, { resolve, reject });
      this.post({ op: 'digest', request, from, file, start, end });
    });
  }

  /** @internal A buffer for a batch of `size` bytes. */
  buffer(size: number): ArrayBuffer {
    return (size <= BUFFER_BYTES && this.spare.pop()) || new ArrayBuffer(Math.max(size, BUFFER_BYTES));
  }

  /** @internal */
  post(message: HashRequest, transfer: ArrayBuffer[] = []): void {
    this.start().postMessage(message, transfer);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./hash-worker.js', import.meta.url));
    // Idle, it must not keep a process (a test run, a CLI) alive.
    worker.unref();
    worker.on('message', (reply: HashReply) => this.receive(reply));
    worker.once('error', (err) => this.onFailure(err));
    worker.once('exit', () => this.stopped(worker));
    this.worker = worker;
    return worker;
  }

  private receive(reply: HashReply): void {
    if (reply.op === 'updated') {
      if (reply.bytes.byteLength === BUFFER_BYTES && this.spare.length < SPARE_BUFFERS) this.spare.push(reply.bytes);
      this.feeds.get(reply.id)?.hashed(reply.size);
      return;
    }
    const pending = this.digests.get(reply.request);
    if (!pending) return;
    this.digests.delete(reply.request);
    if (reply.hex !== undefined) pending.resolve(reply.hex);
    else pending.reject(reply.lost ? new HashLost() : new Error(reply.error ?? 'Hashing failed'));
  }

  /** Whatever the worker held is gone: its digests fail, its feeds stop waiting; the next call starts a new one. */
  private stopped(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const pending of this.digests.values()) pending.reject(new HashLost());
    this.digests.clear();
    for (const feed of this.feeds.values()) feed.hashed(Number.MAX_SAFE_INTEGER);
  }
}

/** The process's one hash thread, started on first use. */
export const hashThread = new HashThread();
