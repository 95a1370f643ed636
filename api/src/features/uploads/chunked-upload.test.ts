import { randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TINY_PNG } from '../../test/audio-fixtures.js';
import { createTestDatabase } from '../../test/database.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { settledJobs } from '../../test/jobs.js';
import { chunkedClient, CLIENT_CHUNK_SIZE, threeChunkWav, uploadDir } from '../../test/upload-client.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { UploadSession, UploadStatus } from './upload-session.entity.js';

let t: TestApp;
let admin: Session;
let wav: Buffer;
const name = 'Long Tone (take 2).wav';
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  wav = await threeChunkWav(name);
});
afterAll(async () => {
  await t?.close();
});

describe('chunked upload', () => {
  it('assembles chunks sent out of order with a duplicate, verifies the hash and creates the file', async () => {
    const c = chunkedClient(t, admin);
    const init = await c.init(wav, name);
    expect(init.status).toBe(200);
    const id = init.body.uploadId;

    expect((await c.chunk(id, wav, name, 2)).status).toBe(200);
    expect((await c.chunk(id, wav, name, 0)).status).toBe(200);
    const again = await c.chunk(id, wav, name, 0);
    expect(again.body).toMatchObject({ success: true, uploadedChunks: [0, 2] });
    expect((await c.status(id)).body.uploadedChunks).toEqual([0, 2]);

    const progress = await t.gql<{ uploadSession: { state: string; uploadedChunks: number[]; progress: number } }>(
      'query($id: ID!) { uploadSession(id: $id) { state uploadedChunks progress uploadedBytes } }',
      { id },
      admin,
    );
    expect(progress.data?.uploadSession).toMatchObject({ state: 'active', uploadedChunks: [0, 2] });
    expect(progress.data?.uploadSession.progress).toBeGreaterThan(50);
    const mine = await t.gql<{ myUploadSessions: { id: string }[] }>('{ myUploadSessions { id } }', {}, admin);
    expect(mine.data?.myUploadSessions.map((s) => s.id)).toContain(id);

    expect((await c.chunk(id, wav, name, 1)).status).toBe(200);
    const done = await c.finalize(
      id,
      { title: '', description: 'Chunked', isPublic: 'false', coverStorageType: 'file' },
      {
        cover: { bytes: TINY_PNG, name: 'cover.png', type: 'image/png' },
      },
    );
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({
      message: 'File uploaded successfully using chunked upload!',
      data: { title: 'Long Tone (take 2)', filename: name, size: wav.length, mimeType: 'audio/wav', isPublic: false },
    });
    expect(done.body.data.duration).toBeCloseTo(130, 0);
    expect(done.body.data.coverImagePath).toBeTruthy();

    const file = await t.app.orm.em.fork().findOneOrFail(AudioFile, { id: done.body.data.id as string });
    expect(readFileSync(path.join(t.config.dataDir, file.storagePath)).equals(wav)).toBe(true);
    expect(existsSync(uploadDir(t, id))).toBe(false);

    const after = await t.gql<{ uploadSession: { state: string; file: { id: string } } }>(
      'query($id: ID!) { uploadSession(id: $id) { state file { id } } }',
      { id },
      admin,
    );
    expect(after.data?.uploadSession).toEqual({ state: 'completed', file: { id: file.id } });
    const late = await c.chunk(id, wav, name, 1);
    expect(late.status).toBe(409);
    expect((await c.finalize(id)).status).toBe(409);
  });

  it('fails finalize on a hash mismatch, keeps the parts for a retry, and cancel removes them', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId;
    const corrupted = Buffer.from(wav);
    corrupted[CLIENT_CHUNK_SIZE + 100] ^= 0xff;
    for (const i of [0, 1, 2]) expect((await c.chunk(id, corrupted, name, i)).status).toBe(200);
    const filesBefore = await t.app.orm.em.fork().count(AudioFile, {});

    const bad = await c.finalize(id, { title: 'Corrupt' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^File hash mismatch/);
    expect(await t.app.orm.em.fork().count(AudioFile, {})).toBe(filesBefore);
    expect((await c.status(id)).body.uploadedChunks).toEqual([0, 1, 2]);

    // The client re-sends the damaged chunk: the retry succeeds.
    expect((await c.chunk(id, wav, name, 1)).status).toBe(200);
    const retried = await c.finalize(id, { title: 'Fixed' });
    expect(retried.status).toBe(201);

    const other = (await c.init(wav, name)).body.uploadId;
    expect((await c.chunk(other, wav, name, 0)).status).toBe(200);
    expect(existsSync(uploadDir(t, other))).toBe(true);
    expect((await c.cancel(other)).status).toBe(200);
    expect(existsSync(uploadDir(t, other))).toBe(false);
    expect((await c.status(other)).body).toMatchObject({ uploadedChunks: [], data: { status: 'cancelled' } });
    expect((await c.chunk(other, wav, name, 1)).status).toBe(409);
  });

  it('refuses bad chunks with a clear 4xx', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId;
    const outOfRange = await c.chunk(id, wav, name, 3, wav.subarray(0, 10));
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body).toMatchObject({ message: 'X-Chunk-Index must be between 0 and 2' });

    const oversized = await c.chunk(id, wav, name, 2, wav.subarray(0, CLIENT_CHUNK_SIZE));
    expect(oversized.status).toBe(413);
    const short = await c.chunk(id, wav, name, 0, wav.subarray(0, 1000));
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({
      message: `Chunk 0 is incomplete: expected ${CLIENT_CHUNK_SIZE} bytes, received 1000`,
    });
    expect((await c.status(id)).body.uploadedChunks).toEqual([]);

    const badInit = await c.init(wav, name, { totalChunks: 7 });
    expect(badInit.status).toBe(400);
    const tooBig = await c.init(wav, name, {
      fileSize: 3 * 1024 ** 3,
      totalChunks: Math.ceil((3 * 1024 ** 3) / CLIENT_CHUNK_SIZE),
    });
    expect(tooBig.status).toBe(400);

    const otherAdmin = await createAdminSession(t);
    const foreign = await chunkedClient(t, otherAdmin).chunk(id, wav, name, 0);
    expect(foreign.status).toBe(403);
    expect((await chunkedClient(t, otherAdmin).status(id)).status).toBe(403);
  });

  it('lets only administrators upload', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    const init = await chunkedClient(t, session).init(wav, name);
    expect(init.status).toBe(403);
    const gql = await t.gql('{ myUploadSessions { id } }', {}, session);
    expect(gql.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses an upload that is not audio at finalize and keeps nothing of it', async () => {
    const c = chunkedClient(t, admin);
    const text = Buffer.from('not audio at all\n'.repeat(1000));
    const id = (await c.init(text, 'fake.mp3')).body.uploadId;
    expect((await c.chunk(id, text, 'fake.mp3', 0)).status).toBe(200);
    const res = await c.finalize(id);
    expect(res.status).toBe(415);
    expect(existsSync(uploadDir(t, id))).toBe(false);
    expect(readdirSync(path.join(t.config.dataDir, 'audio')).some((f) => f.startsWith(id))).toBe(false);
  });

  it('expires unfinished uploads and removes their parts', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId;
    expect((await c.chunk(id, wav, name, 0)).status).toBe(200);
    // The sweep the init queued is done: one still running would drop the next (one at a time).
    await settledJobs(t, 'upload-sweep');
    const em = t.app.orm.em.fork();
    await em.nativeUpdate(UploadSession, { id }, { expiresAt: new Date(Date.now() - 1000) });
    // Any new upload queues a sweep of the expired ones (a background job).
    expect((await c.init(wav, name)).status).toBe(200);
    await vi.waitFor(
      async () => {
        const swept = await t.app.orm.em.fork().findOneOrFail(UploadSession, { id });
        expect(swept.status).toBe(UploadStatus.expired);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(existsSync(uploadDir(t, id))).toBe(false);
    expect((await c.chunk(id, wav, name, 1)).status).toBe(409);
  });
});

describe('upload folders no session owns', () => {
  it('are removed by the next sweep once an hour old (an administrator deleted mid-upload leaves them)', async () => {
    const root = path.join(t.config.dataDir, 'uploads');
    const orphan = path.join(root, randomUUID());
    const young = path.join(root, randomUUID());
    for (const dir of [orphan, young]) {
      mkdirSync(path.join(dir, 'chunks'), { recursive: true });
      writeFileSync(path.join(dir, 'data'), 'left behind');
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(orphan, twoHoursAgo, twoHoursAgo);
    const c = chunkedClient(t, admin);
    const kept = (await c.init(wav, name)).body.uploadId as string;
    await vi.waitFor(() => expect(existsSync(orphan)).toBe(false), { timeout: 20_000, interval: 100 });
    // A folder this young may belong to an init still writing its row; a live upload's is kept.
    expect(existsSync(young)).toBe(true);
    expect(existsSync(uploadDir(t, kept))).toBe(true);
  });
});

describe('resume after a restart', () => {
  it('answers status with the chunks held before the restart and finalizes after it', async () => {
    const db = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pal-restart-'));
    let first: TestApp | null = await startTestApp({ databaseUrl: db.url, dataDir });
    let second: TestApp | null = null;
    try {
      const session = await createAdminSession(first);
      const c1 = chunkedClient(first, session);
      const id = (await c1.init(wav, name)).body.uploadId;
      expect((await c1.chunk(id, wav, name, 1)).status).toBe(200);
      expect((await c1.chunk(id, wav, name, 0)).status).toBe(200);
      await first.close();
      first = null;

      second = await startTestApp({ databaseUrl: db.url, dataDir });
      const c2 = chunkedClient(second, session);
      expect((await c2.status(id)).body.uploadedChunks).toEqual([0, 1]);
      expect((await c2.chunk(id, wav, name, 2)).status).toBe(200);
      const done = await c2.finalize(id, { title: 'Resumed' });
      expect(done.status).toBe(201);
      expect(done.body.data).toMatchObject({ title: 'Resumed', size: wav.length });
    } finally {
      await first?.close();
      await second?.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Two embedded-database starts in one test: slow on a busy machine.
  }, 120_000);
});
