import { createReadStream, read } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../errors.js';
import type { ByteExchange } from '../../http/byte-route.js';
import type { ByteTap } from './metering.js';
import { OpenFiles } from './open-files.js';

export type ByteRange = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const READ_BYTES = 128 * 1024;
/** Files a player is reading stay open this long after their last range; at most this many. */
const openFiles = new OpenFiles(10_000, 256);
/** Buffers for single-read answers, reused once the answer has gone out; at most this many kept. */
const spareBuffers: Buffer[] = [];
const MAX_SPARE_BUFFERS = 64;
/** How often an open response checks that its caller may still have the bytes. */
export const RECHECK_MS = 2000;

const singleRange = /^bytes=(\d*)-(\d*)$/;

/**
 * One byte range of a resource of `size` bytes (RFC 9110 14.1.2). Malformed headers and
 * multi-range requests are ignored (a full 200), as the RFC allows: the player never sends
 * them, and answering many ranges would be a cheap way to make the server do a lot of work.
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return { kind: 'full' };
  const match = singleRange.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'full' };
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Number(match[2]);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'full' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

export interface ByteSource {
  /** Absolute path of the file holding the bytes. */
  path: string;
  /** Where the served resource starts inside the file, and how long it is. */
  offset: number;
  length: number;
  contentType: string;
  /**
   * Checks, every RECHECK_MS while the response is open, that the caller may still have the bytes
   * (throws when not). A revoked grant, an ended session or a deleted file cuts a long response
   * off within seconds, not at its end; the data path itself is not touched.
   */
  recheck?: () => Promise<void>;
  /** Meters the bytes as they are written (rip detection), from this byte of the file on. */
  tap?: (fileOffset: number) => ByteTap;
}

/**
 * Serves a byte window of a file with range support: 200 or 206 with the right Content-Length
 * and Content-Range, 416 for a range past the end, headers only for HEAD. Streams from disk.
 */
export async function sendByteRange(exchange: ByteExchange, source: ByteSource, cacheControl: string): Promise<void> {
  const { req, res } = exchange;
  // If-Range without validators of ours can never match, so such a request gets the whole resource.
  const range = req.headers['if-range'] ? ({ kind: 'full' } as const) : parseRange(req.headers.range, source.length);
  exchange.setHeader('Accept-Ranges', 'bytes');
  exchange.setHeader('Cache-Control', cacheControl);
  // A reverse proxy that buffered the whole answer would read it at full speed for any client, so
  // rip detection would count what the player never asked for (nginx honours this per response).
  if (source.tap) exchange.setHeader('X-Accel-Buffering', 'no');
  if (range.kind === 'unsatisfiable') {
    exchange.setHeader('Content-Range', `bytes */${source.length}`);
    throw new AppError('RANGE_NOT_SATISFIABLE', 'Requested range is not satisfiable');
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : source.length - 1;
  const length = end - start + 1;
  // Opened before any header goes out, so a file gone from the disk is a 404, not a cut answer.
  await openFiles
    .with(source.path, async (file) => {
      const status = range.kind === 'partial' ? 206 : 200;
      exchange.setHeader('Content-Type', source.contentType);
      exchange.setHeader('Content-Length', String(length));
      if (range.kind === 'partial') exchange.setHeader('Content-Range', `bytes ${start}-${end}/${source.length}`);
      if (req.method === 'HEAD' || length <= 0) {
        exchange.writeHead(status);
        return res.end();
      }
      const tap = source.tap?.(source.offset + start);
      if (length <= READ_BYTES) return sendOneRead(exchange, status, file, source.offset + start, length, tap);
      exchange.writeHead(status);
      await streamRange(req, res, file, source.offset + start, source.offset + end, source.recheck, tap);
    })
    .catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new AppError('NOT_FOUND', 'Audio file not found') : err;
    });
}

/**
 * A range that fits one read (the player's seeks, 64 KiB probes): read into a spare buffer and
 * sent with the headers in one write, which waits for the read (a failed read is still answered
 * with an error). The buffer is reused once the answer has gone out; one whose answer was cut off
 * is left to the garbage collector, as the socket may still hold it.
 */
async function sendOneRead(
  exchange: ByteExchange,
  status: number,
  file: FileHandle,
  position: number,
  length: number,
  tap: ByteTap | undefined,
): Promise<void> {
  const { res } = exchange;
  const buffer = spareBuffers.pop() ?? Buffer.allocUnsafeSlow(READ_BYTES);
  // On the descriptor, as streamRange reads: FileHandle.read's own bookkeeping (a hold on the handle
  // per call, so that close() waits) cost more than the call itself, and openFiles keeps the file
  // open while a range uses it.
  const bytesRead = await new Promise<number>((resolve, reject) =>
    read(file.fd, buffer, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))),
  );
  if (bytesRead < length) {
    // The file is shorter than its row says: never send what the headers do not describe.
    res.destroy();
    return;
  }
  exchange.writeHead(status);
  const wait = tap?.written(length) ?? 0;
  if (wait > 0) {
    res.flushHeaders();
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (res.destroyed) return;
  }
  res.once('finish', () => spareBuffers.length < MAX_SPARE_BUFFERS && spareBuffers.push(buffer));
  res.end(buffer.subarray(0, length));
}

/**
 * Passes the bytes through the tap, holding each piece as long as it says (a throttled session);
 * `beforeFirstHold` runs when the first piece is held, so the status and headers need not wait for it.
 */
function metered(tap: ByteTap, beforeFirstHold: () => void): Transform {
  let held: NodeJS.Timeout | undefined;
  let first = true;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const wait = tap.written(chunk.length);
      if (wait > 0 && first) beforeFirstHold();
      first = false;
      if (wait <= 0) return done(null, chunk);
      held = setTimeout(() => done(null, chunk), wait);
    },
    destroy(err, done) {
      clearTimeout(held);
      done(err);
    },
  });
}

/** A longer range streamed in 128 KiB reads, re-checking every RECHECK_MS that it may go on. */
async function streamRange(
  req: IncomingMessage,
  res: ServerResponse,
  file: FileHandle,
  start: number,
  end: number,
  recheck: ByteSource['recheck'],
  tap: ByteTap | undefined,
): Promise<void> {
  // On the open descriptor, which the stream must not close: openFiles holds it. autoClose: false
  // is not enough, as destroying the stream (a client hanging up, a re-check failing) still closes
  // its descriptor; later ranges of the file would then fail, or read whatever file reopened that
  // number. So the stream's close does nothing.
  const stream = createReadStream('', {
    fd: file.fd,
    fs: { read, close: (_fd: number, done: (err: null) => void) => done(null) },
    autoClose: false,
    start,
    end,
    highWaterMark: READ_BYTES,
  });
  let checking = false;
  const timer = recheck
    ? setInterval(() => {
        if (checking) return;
        checking = true;
        recheck()
          .catch(() => res.destroy())
          .finally(() => (checking = false));
      }, RECHECK_MS)
    : undefined;
  try {
    await (tap
      ? pipeline(
          stream,
          metered(tap, () => res.flushHeaders()),
          res,
        )
      : pipeline(stream, res));
  } catch (err) {
    // A client that goes away mid-stream is normal for media, as is one cut off by a re-check;
    // anything else is a server fault.
    if (!res.destroyed && !req.destroyed) throw err;
  } finally {
    clearInterval(timer);
  }
}
