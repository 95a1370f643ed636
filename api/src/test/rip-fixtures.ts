import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { AudioFile } from '../features/files/audio-file.entity.js';
import { storageDirs } from '../features/files/storage-paths.js';
import type { Session } from './factories.js';
import type { TestApp } from './harness.js';
import { streamProofCookie } from './stream-fixtures.js';

/**
 * An AudioFile of `size` bytes that declares `duration` seconds: rip detection reads only sizes and
 * durations, so a one-hour file at 128 kbit/s (57.6 MB) needs no hour of encoding.
 */
export async function createSizedAudioFile(t: TestApp, size: number, duration: number): Promise<AudioFile> {
  const relative = path.join(storageDirs.audio, `${randomUUID()}.mp3`);
  const full = path.join(t.config.dataDir, relative);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, Buffer.alloc(size, 0x5a));
  const em = t.app.orm.em.fork();
  const file = em.create(AudioFile, {
    title: 'Long book',
    filename: 'book.mp3',
    storagePath: relative,
    size,
    duration,
    mimeType: 'audio/mpeg',
    isPublic: false,
  });
  await em.persist(file).flush();
  return file;
}

export interface ReadResult {
  status: number;
  received: number;
  ms: number;
  ended: boolean;
}

/**
 * GETs `url` and reads its body: all of it, or, with `upTo`, that much and then no more while
 * `stallMs` pass before hanging up, as a browser's media element does once its buffer is full (the
 * socket buffers take some more meanwhile). Gives up reading after `timeoutMs`.
 */
export function readBody(
  url: string,
  headers: Record<string, string>,
  options: { upTo?: number; stallMs?: number; timeoutMs: number },
): Promise<ReadResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers }, (res) => {
      let received = 0;
      let settled = false;
      const finish = (ended: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        res.destroy();
        resolve({ status: res.statusCode ?? 0, received, ms: performance.now() - started, ended });
      };
      const timer = setTimeout(() => finish(false), options.timeoutMs);
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (options.upTo !== undefined && received >= options.upTo) {
          res.pause();
          setTimeout(() => finish(false), options.stallMs ?? 0);
        }
      });
      res.on('end', () => finish(true));
      res.on('error', () => finish(false));
    });
    req.on('error', reject);
  });
}

/** Opens a stream session for the file: its URL and the stream-path cookie, as the player gets them. */
export async function openStream(
  t: TestApp,
  fileId: string,
  session: Session,
): Promise<{ url: string; cookie: string }> {
  const res = await t.rest<{ data: { streamUrl: string } }>('POST', `/drm/session/${fileId}`, undefined, session);
  if (res.status !== 200) throw new Error(`stream session: ${res.status}`);
  return { url: `${t.url}${res.body.data.streamUrl}`, cookie: streamProofCookie(res.headers) };
}

/**
 * Reads sixteen 3.5 MB ranges of a one-hour file at once, as a ripper going wide does: past the
 * pool's free read-aheads, sixteen times the allowed speed.
 */
export function readWide(url: string, headers: Record<string, string>, timeoutMs = 3000): Promise<ReadResult[]> {
  const piece = 3_500_000;
  return Promise.all(
    Array.from({ length: 16 }, (_, k) =>
      readBody(url, { ...headers, range: `bytes=${k * piece}-${(k + 1) * piece - 1}` }, { timeoutMs }),
    ),
  );
}

/** A signed seek URL from `startTime` to the end, as the player asks for one at each seek. */
export async function seekUrl(t: TestApp, fileId: string, session: Session, startTime: number): Promise<string> {
  const res = await t.rest<{ data: { signedUrl: string } }>(
    'POST',
    `/drm/signed-url/${fileId}`,
    { startTime },
    session,
  );
  if (res.status !== 200) throw new Error(`signed URL: ${res.status}`);
  return `${t.url}${res.body.data.signedUrl}`;
}

/** Subscribes over graphql-ws with a session (or none) and collects what `field` pushes. */
export async function subscribeTo<T>(t: TestApp, session: Session | null, query: string, field: string) {
  const client = createClient({
    url: t.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: session ? { authorization: `Bearer ${session.token}`, deviceId: session.deviceId } : {},
    retryAttempts: 0,
  });
  const received: T[] = [];
  const errors: unknown[] = [];
  client.on('closed', (event) => errors.push({ closeCode: (event as { code?: number }).code }));
  const stop = client.subscribe<Record<string, T>>(
    { query },
    {
      next: ({ data, errors: refused }) => {
        if (refused) errors.push(refused);
        if (data) received.push(data[field]);
      },
      error: (e) => errors.push(e),
      complete: () => {},
    },
  );
  // The server registers the subscription before anything it should see happens.
  await new Promise((r) => setTimeout(r, 300));
  return {
    received,
    errors,
    async close() {
      stop();
      await client.dispose();
    },
  };
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` pass. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
