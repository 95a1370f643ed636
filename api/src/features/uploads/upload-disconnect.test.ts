import { spawnSync } from 'node:child_process';
import { existsSync, lutimesSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import {
  chunkedClient,
  CLIENT_CHUNK_SIZE,
  finishPartialPart,
  outcome,
  sha256,
  startPartialPart,
  threeChunkWav,
  type PartialPart,
} from '../../test/upload-client.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { hashThread } from './hash-thread.js';
import { runningHashProgress } from './running-hash.js';
import { thisWriter } from './upload-storage.js';

/**
 * A client that goes away in the middle of a file part: the server keeps only what it fully
 * received, the chunked upload stays resumable with an exact hash, and a plain upload leaves
 * neither a row nor bytes behind.
 */

let t: TestApp;
let admin: Session;
let wav: Buffer;
const name = 'Interrupted.wav';
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  wav = await threeChunkWav(name);
});
afterAll(async () => {
  await t?.close();
});

const inDataDir = (...parts: string[]) => path.join(t.config.dataDir, ...parts);
const filesIn = (dir: string) => (existsSync(inDataDir(dir)) ? readdirSync(inDataDir(dir)) : []);
const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);
const chunkOf = (index: number) => wav.subarray(index * CLIENT_CHUNK_SIZE, (index + 1) * CLIENT_CHUNK_SIZE);

/** Whether this process, which runs the server, holds a file under `dir` open. */
function holdsOpen(dir: string): boolean {
  return readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(path.join('/proc/self/fd', fd)).startsWith(dir + path.sep);
    } catch {
      return false; // closed while listing
    }
  });
}

/** The server's running SHA-256 of a chunked upload: the chunks it covers and their digest. */
function runningHash(uploadId: string) {
  return runningHashProgress(t.config, uploadId);
}

/** Finalizes a chunked upload and checks that the file it registers holds exactly the WAV's bytes. */
async function finalizeExact(c: ReturnType<typeof chunkedClient>, id: string, title: string): Promise<void> {
  const done = await c.finalize(id, { title });
  expect(done.status, JSON.stringify(done.body)).toBe(201);
  const file = await t.app.orm.em.fork().findOneOrFail(AudioFile, { id: done.body.data.id as string });
  expect(readFileSync(inDataDir(file.storagePath)).equals(wav)).toBe(true);
}

interface Cut extends Omit<PartialPart, 'session'> {
  /** Holds once the server is writing the part; the cut waits for it. */
  serverIsWriting: () => boolean;
}

/** Cuts the connection once the server is writing the part, as when a browser tab is closed. */
async function cutMidPart({ serverIsWriting, ...part }: Cut): Promise<void> {
  const req = startPartialPart(t.url, { ...part, session: admin });
  const outcome = new Promise<string>((resolve) => {
    req.on('response', (res) => resolve(`answered ${res.statusCode}`));
    req.on('error', () => resolve('cut'));
    req.on('close', () => resolve('cut'));
  });
  await vi.waitFor(() => expect(serverIsWriting()).toBe(true), { timeout: 15_000, interval: 20 });
  req.destroy();
  // The server was still waiting for the rest when the client went away.
  expect(await outcome).toBe('cut');
}

/** The headers the web client sends with chunk `index` of the test WAV. */
function chunkHeaders(uploadId: string, index: number): Record<string, string> {
  return {
    'x-upload-id': uploadId,
    'x-chunk-index': String(index),
    'x-total-chunks': '3',
    'x-file-size': String(wav.length),
    'x-file-name': encodeURIComponent(name),
  };
}

function cutChunk(uploadId: string, index: number, serverIsWriting: () => boolean): Promise<void> {
  const chunk = chunkOf(index);
  return cutMidPart({
    route: '/audio/upload/chunk',
    headers: chunkHeaders(uploadId, index),
    field: 'chunk',
    fileName: 'blob',
    bytes: chunk,
    sent: Math.floor(chunk.length / 2),
    serverIsWriting,
  });
}

describe('a client that disconnects mid-chunk', () => {
  it('keeps only the chunks received in full; the cut chunk is sent again and the hash still matches', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId;
    const dir = inDataDir('uploads', id);
    expect((await c.chunk(id, wav, name, 0)).status).toBe(200);
    expect(await runningHash(id)).toEqual({ next: 1, digest: sha256(chunkOf(0)) });

    await cutChunk(id, 1, () => holdsOpen(dir) && sizeOf(path.join(dir, 'data')) > CLIENT_CHUNK_SIZE);
    // The server lets go of the half-written chunk, and nothing beyond the resumable state is left.
    await vi.waitFor(() => expect(holdsOpen(dir)).toBe(false), { timeout: 10_000, interval: 20 });
    await vi.waitFor(() => expect(readdirSync(path.join(dir, 'chunks'))).toEqual(['0']), { interval: 20 });
    expect(readdirSync(dir).sort()).toEqual(['chunks', 'data']);

    const status = await c.status(id);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ uploadedChunks: [0], data: { status: 'active' } });
    // The half chunk fed nothing into the running hash.
    expect(await runningHash(id)).toEqual({ next: 1, digest: sha256(chunkOf(0)) });

    const resent = await c.chunk(id, wav, name, 1);
    expect(resent.body).toMatchObject({ success: true, uploadedChunks: [0, 1] });
    expect((await c.chunk(id, wav, name, 2)).status).toBe(200);
    await finalizeExact(c, id, 'Cut and resumed');
    expect(existsSync(dir)).toBe(false);
  });

  it('leaves the running hash at the first chunk when that chunk is cut', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId;
    const dir = inDataDir('uploads', id);
    expect(await runningHash(id)).toEqual({ next: 0, digest: sha256(new Uint8Array()) });

    await cutChunk(id, 0, () => holdsOpen(dir) && sizeOf(path.join(dir, 'data')) > 0);
    await vi.waitFor(() => expect(holdsOpen(dir)).toBe(false), { timeout: 10_000, interval: 20 });
    await vi.waitFor(() => expect(readdirSync(path.join(dir, 'chunks'))).toEqual([]), { interval: 20 });
    expect((await c.status(id)).body.uploadedChunks).toEqual([]);
    expect(await runningHash(id)).toEqual({ next: 0, digest: sha256(new Uint8Array()) });

    expect((await c.chunk(id, wav, name, 0)).status).toBe(200);
    expect(await runningHash(id)).toEqual({ next: 1, digest: sha256(chunkOf(0)) });
    for (const index of [1, 2]) expect((await c.chunk(id, wav, name, index)).status).toBe(200);
    expect(await runningHash(id)).toEqual({ next: 3, digest: sha256(wav) });
    const done = await c.finalize(id);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.data).toMatchObject({ size: wav.length, filename: name });
  });
});

/**
 * A slow copy of a chunk with other bytes than the file's (a retry of a corrupted send), half of it
 * sent; resolves once the server is writing it. `finish` sends the rest; `answered` is the status.
 */
async function startStaleCopy(uploadId: string, index: number) {
  const dir = inDataDir('uploads', uploadId);
  const writing = () => filesIn(`uploads/${uploadId}/chunks`).filter((f) => f.startsWith(`${index}.writing-`));
  const stale = Buffer.from(chunkOf(index)).fill(7, 1000);
  const part: PartialPart = {
    route: '/audio/upload/chunk',
    session: admin,
    headers: chunkHeaders(uploadId, index),
    field: 'chunk',
    fileName: 'blob',
    bytes: stale,
    sent: Math.floor(stale.length / 2),
  };
  const slow = startPartialPart(t.url, part);
  const answered = outcome(slow);
  await vi.waitFor(() => expect(holdsOpen(dir) && writing().length).toBe(1), { timeout: 15_000, interval: 20 });
  return { answered, finish: () => finishPartialPart(slow, part) };
}

describe('a stale copy of a chunk still arriving at finalize', () => {
  it('holds finalize off until it is written, so no byte lands after the hash check', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId;
    const dir = inDataDir('uploads', id);
    for (const index of [0, 2]) expect((await c.chunk(id, wav, name, index)).status).toBe(200);
    const stale = await startStaleCopy(id, 1);
    // Meanwhile the right copy of chunk 1 arrives in full: every chunk counts as held.
    expect((await c.chunk(id, wav, name, 1)).status).toBe(200);
    expect((await c.status(id)).body.uploadedChunks).toEqual([0, 1, 2]);

    const early = await c.finalize(id, { title: 'Too early' });
    expect(early.status, JSON.stringify(early.body)).toBe(409);
    expect(early.body.message).toBe('Chunks of this upload are still being written; finalize again once they finish');
    expect(await t.app.orm.em.fork().count(AudioFile, { title: 'Too early' })).toBe(0);

    // The stale copy lands: the hash check sees it, and the right bytes sent again then pass.
    stale.finish();
    expect(await stale.answered).toBe(200);
    expect((await c.finalize(id)).body.message).toMatch(/^File hash mismatch/);
    expect((await c.chunk(id, wav, name, 1)).status).toBe(200);
    // What killed processes left does not hold finalize off: a marker naming a process here that
    // has ended, and one from another host no longer renewed.
    const leftover = (name: string, writer: object) => {
      const file = path.join(dir, 'chunks', `1.writing-${name}`);
      symlinkSync(JSON.stringify(writer), file);
      return file;
    };
    leftover('dead-process', { ...thisWriter, pid: spawnSync('true').pid, run: 'earlier' });
    const unrenewed = leftover('other-host', { place: 'elsewhere', pid: 1, run: 'earlier' });
    lutimesSync(unrenewed, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await finalizeExact(c, id, 'After the stale copy');
  });

  it('keeps the running hash off a chunk two copies wrote at once, so the mix fails the check', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId;
    expect((await c.chunk(id, wav, name, 0)).status).toBe(200);
    // The stale copy of chunk 2 starts before chunk 1 is in, so before chunk 2 could be hashed.
    const stale = await startStaleCopy(id, 2);
    for (const index of [1, 2]) expect((await c.chunk(id, wav, name, index)).status).toBe(200);
    stale.finish();
    expect(await stale.answered).toBe(200);
    expect(await runningHash(id)).toEqual({ next: 2, digest: sha256(wav.subarray(0, 2 * CLIENT_CHUNK_SIZE)) });
    // The stale bytes landed last: finalize reads chunk 2 back and refuses, rather than register them.
    expect((await c.finalize(id)).body.message).toMatch(/^File hash mismatch/);
    expect((await c.chunk(id, wav, name, 2)).status).toBe(200);
    await finalizeExact(c, id, 'After two copies at once');
  });
});

describe('the hash thread stopping mid-upload', () => {
  it('loses only the running hash: finalize reads the file back and registers it', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId;
    for (const index of [0, 1]) expect((await c.chunk(id, wav, name, index)).status).toBe(200);
    await (hashThread as unknown as { worker: Worker }).worker.terminate();
    expect((await c.chunk(id, wav, name, 2)).status).toBe(200);
    await finalizeExact(c, id, 'After the hash thread stopped');
  });
});

describe('a client that disconnects mid-upload of POST /files', () => {
  it('registers no file and leaves no bytes behind', async () => {
    const filesBefore = await t.app.orm.em.fork().count(AudioFile, {});
    const audioBefore = filesIn('audio');
    const tmp = inDataDir('tmp');

    await cutMidPart({
      route: '/files',
      headers: {},
      field: 'audio',
      fileName: name,
      bytes: wav,
      sent: Math.floor(wav.length / 2),
      serverIsWriting: () => holdsOpen(tmp) && filesIn('tmp').some((f) => sizeOf(path.join(tmp, f)) > 0),
    });
    await vi.waitFor(() => expect(filesIn('tmp')).toEqual([]), { timeout: 10_000, interval: 20 });
    expect(holdsOpen(tmp)).toBe(false);

    // The server still answers, and nothing of the cut upload shows anywhere.
    const list = await t.rest<{ data: { id: string }[] }>('GET', '/admin/files', undefined, admin);
    expect(list.status).toBe(200);
    expect(await t.app.orm.em.fork().count(AudioFile, {})).toBe(filesBefore);
    expect(list.body.data).toHaveLength(filesBefore);
    expect(filesIn('audio')).toEqual(audioBefore);
  });
});
