import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTestAudio, TINY_PNG } from '../../test/audio-fixtures.js';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { audioPart, chunkedClient, uploadForm } from '../../test/upload-client.js';
import { settledChapters } from '../../test/chapter-client.js';
import { importedFile } from '../../test/jobs.js';
import { Cover } from '../files/cover.entity.js';
import { ffmpegPath } from '../media/ffmpeg.js';
import { chaptersFitting, readEmbeddedMetadata } from './embedded-metadata.js';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'pal-tags-'));

/** Two chapters over six seconds, as an ffmetadata file: "Opening" 0-2.5 s, "The Road" 2.5-6 s. */
const FFMETADATA = `;FFMETADATA1
[CHAPTER]
TIMEBASE=1/1000
START=0
END=2500
title=Opening
[CHAPTER]
TIMEBASE=1/1000
START=2500
END=6000
title=The Road
`;

const ffmpeg = (args: string[]) =>
  run(ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH }), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-y',
    ...args,
  ]);
const coverPath = path.join(dir, 'cover.png');

/** A noisy 600 x 600 PNG: large enough (about 1 MB) that the library makes it a thumbnail. */
function makeCover(): Promise<unknown> {
  return ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=gray:s=600x600',
    '-vf',
    'noise=alls=100:allf=t',
    '-frames:v',
    '1',
    coverPath,
  ]);
}

/** A six-second book made by the project's ffmpeg with tags, the PNG cover and two chapters. */
async function taggedBook(extension: 'mp3' | 'm4b'): Promise<string> {
  const chapters = path.join(dir, 'chapters.txt');
  writeFileSync(chapters, FFMETADATA);
  const out = path.join(dir, `book.${extension}`);
  const codec = extension === 'mp3' ? ['-c:a', 'libmp3lame', '-id3v2_version', '3'] : ['-c:a', 'aac', '-f', 'ipod'];
  await ffmpeg([
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=6'],
    ...['-i', chapters, '-i', coverPath],
    ...['-map', '0:a', '-map', '2:v', '-map_metadata', '1', '-map_chapters', '1'],
    ...['-c:v', 'copy', '-disposition:v', 'attached_pic'],
    ...codec,
    ...['-metadata', 'title=The Long Road', '-metadata', 'artist=Ada Writer', '-metadata', 'album=The Long Road'],
    ...['-metadata', 'genre=Fiction', '-metadata', 'date=2021', '-metadata', 'comment=A walk told slowly.'],
    ...['-metadata', 'composer=Nora Reader'],
    out,
  ]);
  return out;
}

let t: TestApp;
let admin: Session;
let mp3: string;
let m4b: string;
let plain: string;
beforeAll(async () => {
  await makeCover();
  [mp3, m4b, plain] = await Promise.all([
    taggedBook('mp3'),
    taggedBook('m4b'),
    generateTestAudio('mp3', 2, 'Plain Tone.mp3'),
  ]);
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(path.dirname(plain), { recursive: true, force: true });
});

type FileBody = { data: Record<string, unknown> };

const FILE_FIELDS = 'id title description coverImagePath coverImageBase64 coverThumbnailUrl chapters { label }';

/** The file as GraphQL shows it once the import of its tags, cover and chapters is done. */
async function afterImport(id: string): Promise<Record<string, unknown>> {
  await importedFile(t, id);
  const res = await t.gql<{ audioFile: Record<string, unknown> }>(
    `query($id: ID!) { audioFile(id: $id) { ${FILE_FIELDS} } }`,
    { id },
    admin,
  );
  expect(res.errors).toBeUndefined();
  return res.data!.audioFile;
}

/** The file's chapters once their finalize jobs (queued by the upload) are done. */
async function storedChapters(fileId: string) {
  const rows = await settledChapters(t, fileId);
  return rows.map((c) => ({
    label: c.label,
    startTime: c.startTime,
    endTime: c.endTime,
    status: c.status,
    storageType: c.storageType,
  }));
}

// Finalized into filesystem storage with no finalize request: playable at once.
const expectedChapters = [
  { label: 'Opening', startTime: expect.closeTo(0, 2), status: 'ready', storageType: 'filesystem' },
  { label: 'The Road', startTime: expect.closeTo(2.5, 2), status: 'ready', storageType: 'filesystem' },
];

describe('reading a file’s own metadata', () => {
  it.each(['mp3', 'm4b'] as const)('reads tags, the cover and chapters of an %s', async (kind) => {
    const read = await readEmbeddedMetadata(kind === 'mp3' ? mp3 : m4b);
    expect(read).toMatchObject({
      title: 'The Long Road',
      authors: ['Ada Writer'],
      narrators: ['Nora Reader'],
      year: 2021,
      genres: ['Fiction'],
      description: 'A walk told slowly.',
      cover: { mimeType: 'image/png' },
    });
    expect(read.chapters.map((c) => c.label)).toEqual(['Opening', 'The Road']);
    expect(read.chapters[1].startTime).toBeCloseTo(2.5, 2);
  });

  it('reads nothing from a file without tags, and nothing from a file it cannot parse', async () => {
    const read = await readEmbeddedMetadata(plain);
    expect(read).toMatchObject({ title: null, authors: [], narrators: [], description: null, cover: null });
    expect(read.chapters).toEqual([]);
    const junk = path.join(dir, 'junk.bin');
    writeFileSync(junk, 'not audio at all');
    expect((await readEmbeddedMetadata(junk)).title).toBeNull();
  });

  it('keeps a chapter list that fits the duration and leaves out one that cannot stand', () => {
    const fits = chaptersFitting([{ label: 'A', startTime: 0, endTime: 6.02 }], 6);
    expect(fits).toEqual([{ label: 'A', startTime: 0, endTime: 6 }]);
    expect(chaptersFitting([{ label: 'Late', startTime: 9, endTime: null }], 6)).toEqual([]);
  });
});

describe('uploads take the file’s metadata', () => {
  it('POST /files: the title, description, cover and chapters come from an .m4b', async () => {
    const res = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm({ title: '', coverStorageType: 'file' }, { audio: audioPart(m4b, 'audio/mp4') }),
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The upload answers before the file's tags are read (the file-import job).
    expect(res.body.data).toMatchObject({ title: 'book', description: null });
    expect(await afterImport(res.body.data.id as string)).toMatchObject({
      title: 'The Long Road',
      description: 'A walk told slowly.',
    });
    const cover = await t.app.orm.em.fork().findOneOrFail(Cover, { file: res.body.data.id as string });
    expect(readFileSync(path.join(t.config.dataDir, cover.path!)).equals(readFileSync(coverPath))).toBe(true);
    // Its thumbnail is made by a background job.
    await vi.waitFor(
      async () =>
        expect(
          (await t.app.orm.em.fork().findOneOrFail(Cover, { file: res.body.data.id as string })).thumbnailPath,
        ).toBeTruthy(),
      { timeout: 20_000, interval: 100 },
    );
    expect(await storedChapters(res.body.data.id as string)).toMatchObject(expectedChapters);
  });

  it('POST /files: a typed title and description and a sent cover win over the tags', async () => {
    const jpegLike = { bytes: TINY_PNG, name: 'mine.png', type: 'image/png' };
    const res = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm(
        { title: 'Typed Title', description: 'Typed words', coverStorageType: 'base64' },
        { audio: audioPart(mp3), cover: jpegLike },
      ),
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'Typed Title', description: 'Typed words' });
    expect(res.body.data.coverImageBase64).toBe(`data:image/png;base64,${TINY_PNG.toString('base64')}`);
    // Once the tags are read: still what was typed and sent; the chapters, never typed, from the file.
    expect(await afterImport(res.body.data.id as string)).toMatchObject({
      title: 'Typed Title',
      description: 'Typed words',
      coverImageBase64: `data:image/png;base64,${TINY_PNG.toString('base64')}`,
      chapters: [{ label: 'Opening' }, { label: 'The Road' }],
    });
  });

  it('POST /files: a file without tags gets no invented description, cover or chapters', async () => {
    const res = await t.rest<FileBody>('POST', '/files', uploadForm({}, { audio: audioPart(plain) }), admin);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'Plain Tone', description: null });
    const id = res.body.data.id as string;
    expect(await afterImport(id)).toMatchObject({ title: 'Plain Tone', description: null });
    expect(await t.app.orm.em.fork().count(Cover, { file: id })).toBe(0);
    expect(await storedChapters(id)).toEqual([]);
  });

  it('chunked upload, finalized over REST and over GraphQL, reads the .mp3', async () => {
    const bytes = readFileSync(mp3);
    const c = chunkedClient(t, admin);

    const rest = (await c.init(bytes, 'book.mp3', { mimeType: 'audio/mpeg' })).body.uploadId;
    expect((await c.chunk(rest, bytes, 'book.mp3', 0)).status).toBe(200);
    const done = await c.finalize(rest, { title: '' });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const read = await afterImport(done.body.data.id as string);
    expect(read).toMatchObject({ title: 'The Long Road', description: 'A walk told slowly.' });
    expect(read.coverImagePath).toBeTruthy();
    expect(await storedChapters(done.body.data.id as string)).toMatchObject(expectedChapters);

    const viaGql = (await c.init(bytes, 'book.mp3', { mimeType: 'audio/mpeg' })).body.uploadId;
    expect((await c.chunk(viaGql, bytes, 'book.mp3', 0)).status).toBe(200);
    const gql = await t.gql<{
      finalizeUpload: { id: string };
    }>('mutation($id: ID!) { finalizeUpload(id: $id, input: { title: "" }) { id } }', { id: viaGql }, admin);
    expect(gql.errors).toBeUndefined();
    const imported = await afterImport(gql.data!.finalizeUpload.id);
    expect(imported).toMatchObject({
      title: 'The Long Road',
      description: 'A walk told slowly.',
      chapters: [{ label: 'Opening' }, { label: 'The Road' }],
    });
    expect(imported.coverThumbnailUrl).toBeTruthy();
  });
});
