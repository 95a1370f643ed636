import { read } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
 * Reads of a longer range: large, as fewer reads (each a trip to libuv's thread pool and back) are
 * what make a whole file cheap; the buffers are reused, as a fresh one per read is external memory
 * that makes V8 collect the API's whole heap every few dozen MB served (a profile of a 48 MB file at
 * 16 connections: 8% of the main thread in the garbage collector, against 0.1% with reuse).
 */
const STREAM_READ_BYTES = 512 * 1024;
/**
 * Each read is metered and written in pieces of this size, so a paced (throttled) response is held
 * per piece as before: what one hold lets go is never more than this.
 */
export const METER_BYTES = READ_BYTES;
/** Read buffers kept for longer ranges once their bytes have gone out; at most this many (8 MiB). */
const spareStreamBuffers: Buffer[] = [];
const MAX_SPARE_STREAM_BUFFERS = 16;

function readAt(fd: number, buffer: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, buffer, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))),
  );
}

/** Resolves once `res` takes more bytes ('drain') or is gone ('close'). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Resolves after `ms`, or at once when `res` is gone. */
function held(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on('close', done);
  });
}

interface Piece {
  buffer: Buffer;
  length: number;
}

/**
 * A longer range: 512 KiB reads, each started while the one before is being written (as a read
 * stream reads ahead), metered and written in 128 KiB pieces that wait for the socket to drain
 * (backpressure) and for the tap (pacing); once paced, 128 KiB reads one at a time. Every RECHECK_MS a re-check that fails destroys the
 * response, which ends the loop at its next step.
 */
async function streamRange(
  req: IncomingMessage,
  res: ServerResponse,
  file: FileHandle,
  start: number,
  end: number,
  recheck: ByteSource['recheck'],
  tap: ByteTap | undefined,
): Promise<void> {
  // On the descriptor openFiles holds open while this runs: every read is awaited before return.
  const fd = file.fd;
  // Once the tap holds a piece the response is paced: from then on it reads one 128 KiB piece at a
  // time and none ahead, so a paced listener holds no more memory than the piece it waits to send.
  let paced = false;
  const readPiece = async (position: number): Promise<Piece> => {
    const [size, pool] = paced ? [READ_BYTES, spareBuffers] : [STREAM_READ_BYTES, spareStreamBuffers];
    const length = Math.min(size, end + 1 - position);
    const buffer = pool.pop() ?? Buffer.allocUnsafeSlow(size);
    const bytesRead = await readAt(fd, buffer, length, position);
    // The file is shorter than its row says: never send what the headers do not describe.
    if (bytesRead < length) throw new ShortFile();
    return { buffer, length };
  };
  const spare = (buffer: Buffer) => {
    if (buffer.length === STREAM_READ_BYTES) {
      if (spareStreamBuffers.length < MAX_SPARE_STREAM_BUFFERS) spareStreamBuffers.push(buffer);
    } else if (spareBuffers.length < MAX_SPARE_BUFFERS) spareBuffers.push(buffer);
  };
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
  /** Meters and writes one read; false once the response is gone. */
  let first = true;
  const send = async ({ buffer, length }: Piece): Promise<boolean> => {
    for (let at = 0; at < length; at += METER_BYTES) {
      const piece = buffer.subarray(at, Math.min(at + METER_BYTES, length));
      const wait = tap?.written(piece.length) ?? 0;
      if (wait > 0) {
        paced = true;
        // The status and headers need not wait for the first held piece.
        if (first) res.flushHeaders();
        await held(res, wait);
      }
      first = false;
      if (res.destroyed) return false;
      // The buffer is reused once its last piece has left for the socket; one whose answer was cut
      // off is left to the garbage collector, as the socket may still hold it.
      const last = at + METER_BYTES >= length;
      if (!res.write(piece, last ? (err) => !err && spare(buffer) : undefined)) await drained(res);
    }
    return !res.destroyed;
  };
  const ahead = (position: number) => {
    const read = readPiece(position);
    // Awaited later; a failure meanwhile is not an unhandled rejection.
    read.catch(() => undefined);
    return read;
  };
  let next: Promise<Piece> | null = ahead(start);
  try {
    for (let position = start; next;) {
      const piece = await next;
      next = null;
      position += piece.length;
      // Unpaced, the next read goes on while this one is written.
      if (position <= end && !res.destroyed && !paced) next = ahead(position);
      if (!(await send(piece))) break;
      if (!next && position <= end && !res.destroyed) next = ahead(position);
    }
    if (!res.destroyed) res.end();
  } catch (err) {
    if (err instanceof ShortFile) res.destroy();
    // A client that goes away mid-stream is normal for media, as is one cut off by a re-check;
    // anything else (a failed read) is a server fault.
    else if (!res.destroyed && !req.destroyed) throw err;
  } finally {
    clearInterval(timer);
    // A read still under way finishes before the descriptor may be given back (its buffer, never
    // written, is spare).
    if (next) await next.then((piece) => spare(piece.buffer)).catch(() => undefined);
  }
}

class ShortFile extends Error {}
