import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioFile } from '../../features/files/audio-file.entity.js';
import { generateTestAudio } from '../audio-fixtures.js';
import { createAdminSession, type Session } from '../factories.js';
import { startTestApp, type TestApp } from '../harness.js';
import { chunkedClient, uploadForm } from '../upload-client.js';

/**
 * The disk fills up in the middle of an upload. Where uploads land (DATA_DIR/uploads for chunked
 * uploads, DATA_DIR/tmp for direct ones) is a 6 MB tmpfs, so the 8.8 MB file cannot fit.
 * Mounting needs root; where it is refused the test says so and is skipped.
 */

const SPACE = '6m';
const dataDir = mkdtempSync(path.join(tmpdir(), 'pal-fault-disk-'));
const mounts = ['uploads', 'tmp'].map((dir) => path.join(dataDir, dir));

function mountSmallDisks(): boolean {
  for (const dir of mounts) {
    mkdirSync(dir, { recursive: true });
    const res = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${SPACE}`, 'tmpfs', dir], { encoding: 'utf8' });
    if (res.status !== 0) {
      process.stderr.write(`disk-full fault test skipped: cannot mount a tmpfs here (${res.stderr.trim()})\n`);
      return false;
    }
  }
  return true;
}
const canMount = mountSmallDisks();

let t: TestApp;
let admin: Session;
let audio: Buffer;

beforeAll(async () => {
  if (!canMount) return;
  t = await startTestApp({ dataDir });
  admin = await createAdminSession(t);
  const wav = await generateTestAudio('wav', 100);
  audio = readFileSync(wav);
  rmSync(path.dirname(wav), { recursive: true, force: true });
});
afterAll(async () => {
  await t?.close();
  for (const dir of mounts) spawnSync('umount', [dir]);
  rmSync(dataDir, { recursive: true, force: true });
});

async function nothingRegistered(): Promise<void> {
  expect(await t.app.orm.em.fork().count(AudioFile, {})).toBe(0);
  const list = await t.rest<{ data: unknown[] }>('GET', '/admin/files', undefined, admin);
  expect(list.body.data).toEqual([]);
  const audioDir = path.join(dataDir, 'audio');
  expect(existsSync(audioDir) ? readdirSync(audioDir) : []).toEqual([]);
}

describe.skipIf(!canMount)('the disk fills up during an upload', () => {
  it('refuses the chunk that does not fit with a clear message, keeps the ones that did, registers nothing', async () => {
    expect(audio.length).toBeGreaterThan(8 * 1024 * 1024);
    const client = chunkedClient(t, admin);
    const init = await client.init(audio, 'too-big.wav');
    expect(init.status).toBe(200);
    const { uploadId } = init.body;
    expect((await client.chunk(uploadId, audio, 'too-big.wav', 0)).status).toBe(200);

    const full = await client.chunk(uploadId, audio, 'too-big.wav', 1);
    expect(full.status, JSON.stringify(full.body)).toBe(507);
    expect(full.body).toMatchObject({
      success: false,
      message: 'Not enough disk space to store the upload',
      error: { code: 'INSUFFICIENT_STORAGE' },
    });
    expect((await client.status(uploadId)).body.uploadedChunks).toEqual([0]);
    const finalize = await client.finalize(uploadId, { title: 'Never complete' });
    expect(finalize.status).toBe(400);
    expect(finalize.body.message).toMatch(/incomplete: 1 of 2 chunks/);
    await nothingRegistered();

    // Cancelling gives the space back.
    expect((await client.cancel(uploadId)).status).toBe(200);
    expect(readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);
  });

  it('refuses a direct upload that does not fit and leaves no partial file behind', async () => {
    const res = await t.rest<{ message: string; error: { code: string } }>(
      'POST',
      '/files',
      uploadForm({ title: 'Too big' }, { audio: { bytes: audio, name: 'too-big.wav', type: 'audio/wav' } }),
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(507);
    expect(res.body.message).toBe('Not enough disk space to store the upload');
    await nothingRegistered();
    expect(readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);
  });
});
