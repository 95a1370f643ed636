import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors.js';

const WRITE_BUFFER_BYTES = 1024 * 1024;

export interface StreamToFileOptions {
  /** 'w' creates or truncates; 'r+' writes into an existing file at `start`. */
  flags: 'w' | 'r+';
  start?: number;
  /** More bytes than this fail with PAYLOAD_TOO_LARGE. */
  maxBytes: number;
  tooLargeMessage: string;
  /** Fed every byte as it is written, so the data is never read back to hash it. */
  hash?: ByteFeed;
}

/** A consumer of the written bytes besides the file (a running hash), with backpressure. */
export interface ByteFeed {
  /** False asks the writer to wait for `drained()` before more. */
  write(bytes: Buffer): boolean;
  drained(): Promise<void>;
  /** The last bytes were written. */
  end(): void;
}

/** Disk errors a client should see for what they are; anything else stays an internal error. */
export function diskError(err: unknown): Error {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new AppError('INSUFFICIENT_STORAGE', 'Not enough disk space to store the upload');
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Writes a (multipart part) stream to a file with backpressure. On failure the rest of the
 * stream is still read and dropped, so the multipart body keeps flowing to its end; the file is
 * closed before the promise settles, so the caller can remove it. Resolves the byte count.
 */
export function streamToFile(source: Readable, target: string, options: StreamToFileOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    // A 1 MiB buffer lets queued parts leave in one writev instead of one thread-pool trip per
    // 64 KiB socket read (seen: the server sat idle waiting on those trips).
    const out = createWriteStream(target, {
      flags: options.flags,
      start: options.start,
      mode: 0o600,
      highWaterMark: WRITE_BUFFER_BYTES,
    });
    let size = 0;
    let failure: Error | null = null;
    let sourceDone = false;
    let outClosed = false;

    const settle = () => {
      if (!outClosed || (!sourceDone && !failure)) return;
      if (failure) reject(failure);
      else resolve(size);
    };
    const fail = (err: Error) => {
      if (failure) return;
      failure = err;
      out.destroy();
      source.resume();
    };

    source.on('data', (chunk: Buffer) => {
      if (failure) return;
      size += chunk.length;
      if (size > options.maxBytes) return fail(new AppError('PAYLOAD_TOO_LARGE', options.tooLargeMessage));
      const fileReady = out.write(chunk);
      const hashReady = options.hash?.write(chunk) ?? true;
      if (!fileReady || !hashReady) {
        source.pause();
        // A failure destroys `out`, whose drain then never comes: fail() resumes the source itself.
        void Promise.all([fileReady || once(out, 'drain'), hashReady || options.hash?.drained()]).then(
          () => source.resume(),
          () => undefined,
        );
      }
    });
    source.once('limit', () => fail(new AppError('PAYLOAD_TOO_LARGE', options.tooLargeMessage)));
    source.once('end', () => {
      sourceDone = true;
      if (failure) settle();
      else {
        options.hash?.end();
        out.end();
      }
    });
    source.once('error', () => {
      sourceDone = true;
      fail(new AppError('BAD_USER_INPUT', 'The upload was interrupted before the file was complete'));
    });
    out.once('error', (err) => fail(diskError(err)));
    out.once('close', () => {
      outClosed = true;
      settle();
    });
  });
}
