import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestAudio } from '../audio-fixtures.js';
import { createTestDatabase } from '../database.js';
import { signIn, TEST_PASSWORD, type Session } from '../factories.js';
import { restCaller } from '../harness.js';
import { chunkedClient, CLIENT_CHUNK_SIZE, sha256, startPartialPart } from '../upload-client.js';
import { buildApi, startApiProcess, type ApiProcess } from './api-process.js';

/**
 * The API process is killed (SIGKILL, no chance to clean up) in the middle of a chunk of a chunked
 * upload. After a restart the client asks what the server holds, sends the rest and finalizes:
 * the stored file is byte for byte the one the client had.
 */

const ADMIN_EMAIL = 'fault-admin@example.com';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let api: ApiProcess | null = null;
let audio: Buffer;

beforeAll(async () => {
  buildApi();
  db = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'pal-fault-upload-'));
  // About 17.6 MB of WAV: four chunks, the last one short.
  const wav = await generateTestAudio('wav', 200);
  audio = readFileSync(wav);
  rmSync(path.dirname(wav), { recursive: true, force: true });
}, 240_000);
afterAll(async () => {
  await api?.stop('SIGKILL');
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function start(): Promise<ApiProcess> {
  return startApiProcess({
    DATA_DIR: dataDir,
    DATABASE_URL: db.url ?? '',
    ADMIN_EMAIL,
    ADMIN_PASSWORD: TEST_PASSWORD,
    SECRET: 'fault-secret-fault-secret-fault-secret-0123',
  });
}

/** Sends the first `sendBytes` of a chunk's multipart body and leaves the request hanging. */
function startChunkWithoutFinishing(url: string, session: Session, uploadId: string, index: number, sendBytes: number) {
  const req = startPartialPart(url, {
    route: '/audio/upload/chunk',
    session,
    headers: {
      'x-upload-id': uploadId,
      'x-chunk-index': String(index),
      'x-total-chunks': String(Math.ceil(audio.length / CLIENT_CHUNK_SIZE)),
      'x-file-size': String(audio.length),
      'x-file-name': 'long-tone.wav',
    },
    field: 'chunk',
    fileName: 'blob',
    bytes: audio.subarray(index * CLIENT_CHUNK_SIZE, (index + 1) * CLIENT_CHUNK_SIZE),
    sent: sendBytes,
  });
  return new Promise<string>((resolve) => {
    req.on('error', (err) => resolve(`error: ${err.message}`));
    req.on('response', (res) => resolve(`status ${res.statusCode}`));
  });
}

describe('SIGKILL during a chunked upload', () => {
  it('resumes after a restart with every chunk once and the exact bytes', async () => {
    api = await start();
    const rest = restCaller(api.url);
    const session = await signIn({ rest }, ADMIN_EMAIL);
    let client = chunkedClient({ rest }, session);
    const totalChunks = Math.ceil(audio.length / CLIENT_CHUNK_SIZE);
    expect(totalChunks).toBe(4);

    const init = await client.init(audio, 'long-tone.wav');
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const { uploadId } = init.body;
    for (const index of [0, 1]) expect((await client.chunk(uploadId, audio, 'long-tone.wav', index)).status).toBe(200);

    // Half of chunk 2 has reached the server when the process dies.
    const hanging = startChunkWithoutFinishing(api.url, session, uploadId, 2, 2 * 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await api.stop('SIGKILL');
    expect(await hanging).toMatch(/^error/);

    api = await start();
    const restarted = restCaller(api.url);
    // The same token still works: the client resumes without signing in again.
    client = chunkedClient({ rest: restarted }, session);
    const status = await client.status(uploadId);
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    expect(status.body.uploadedChunks).toEqual([0, 1]);

    // The client sends what is missing; a retried chunk 1 overwrites itself rather than adding bytes.
    for (const index of [2, 1, 3]) {
      const res = await client.chunk(uploadId, audio, 'long-tone.wav', index);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect((await client.status(uploadId)).body.uploadedChunks).toEqual([0, 1, 2, 3]);
    const finalized = await client.finalize(uploadId, { title: 'Survived a crash' });
    expect(finalized.status, JSON.stringify(finalized.body)).toBe(201);
    const fileId = String(finalized.body.data.id);
    expect(finalized.body.data.size).toBe(audio.length);

    // What a listener gets is byte for byte what was uploaded.
    const grant = await restarted<{ data: { streamUrl: string } }>(
      'POST',
      `/drm/session/${fileId}`,
      undefined,
      session,
    );
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    const bytes = Buffer.from(
      await (
        await fetch(`${api.url}${grant.body.data.streamUrl}`, {
          headers: { authorization: `Bearer ${session.token}`, 'x-device-id': session.deviceId },
        })
      ).arrayBuffer(),
    );
    expect(bytes.length).toBe(audio.length);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256(audio));

    const files = await restarted<{ data: { id: string }[] }>('GET', '/admin/files', undefined, session);
    expect(files.body.data.map((f) => f.id)).toEqual([fileId]);
    expect(api.stderr()).not.toMatch(/unhandled|TypeError/i);
  }, 180_000);
});
