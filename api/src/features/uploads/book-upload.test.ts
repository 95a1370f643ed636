import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { chunkedClient, sha256, uploadDir } from '../../test/upload-client.js';
import { settledChapters } from '../../test/chapter-client.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { Cover } from '../files/cover.entity.js';
import { resolveStoredPath } from '../files/storage-paths.js';
import { ffmpegPath } from '../media/ffmpeg.js';
import { probeAudio } from '../media/probe.js';
import { joinOrder } from './book-parts.js';
import { UploadSession, UploadStatus } from './upload-session.entity.js';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'pal-book-'));
const ffmpegBin = ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH });
const ffmpeg = (args: string[]) =>
  run(ffmpegBin, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], { maxBuffer: 64 * 1024 * 1024 });

/** The five parts of "The Five Rooms", in track order: a tone of its own each, of its own length. */
const parts = [
  { file: 'Rooms 01.mp3', title: 'The Hall', seconds: 2, hz: 330 },
  { file: 'Rooms 02.mp3', title: 'The Kitchen', seconds: 3, hz: 440 },
  { file: 'Rooms 03.mp3', title: 'The Stair', seconds: 2.5, hz: 550, cover: true },
  { file: 'Rooms 04.mp3', title: 'The Attic', seconds: 3.5, hz: 660 },
  { file: 'Rooms 10.mp3', title: 'The Garden', seconds: 2, hz: 770 },
];
const coverPath = path.join(dir, 'cover.png');

async function makePart(part: (typeof parts)[number], track: number): Promise<Buffer> {
  const out = path.join(dir, part.file);
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `sine=frequency=${part.hz}:sample_rate=44100:duration=${part.seconds}`],
    ...(part.cover
      ? ['-i', coverPath, '-map', '0:a', '-map', '1:v', '-c:v', 'copy', '-disposition:v', 'attached_pic']
      : []),
    ...['-c:a', 'libmp3lame', '-b:a', '64k', '-id3v2_version', '3'],
    ...['-metadata', `title=${part.title}`, '-metadata', `track=${track}/5`],
    ...['-metadata', 'album=The Five Rooms', '-metadata', 'artist=Ada Writer'],
    ...['-metadata', 'NARRATOR=Nora Reader', '-metadata', 'SERIES=The Houses', '-metadata', 'SERIES-PART=3'],
    out,
  ]);
  return readFileSync(out);
}

/** Every audio packet's size and MD5, as a stream copy reads them: equal lists mean equal frames. */
async function audioFrames(file: string): Promise<string[]> {
  const { stdout } = await ffmpeg(['-i', file, '-map', '0:a', '-c', 'copy', '-f', 'framemd5', '-']);
  return (
    stdout
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      // stream, dts, pts, duration, size, hash[, side data]: the side data (gapless trims) is the container's.
      .map((line) => line.split(',').slice(4, 6).join(',').trim())
  );
}

let t: TestApp;
let admin: Session;
const bytes: Buffer[] = [];
beforeAll(async () => {
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=teal:s=300x300', '-frames:v', '1', coverPath]);
  for (const [i, part] of parts.entries()) bytes.push(await makePart(part, i + 1));
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Uploads the parts `indexes` (of `parts`) as chunked uploads, in that order; their upload ids. */
async function uploadParts(indexes: number[], session = admin, files = bytes): Promise<string[]> {
  const c = chunkedClient(t, session);
  const ids: string[] = [];
  for (const i of indexes) {
    const name = parts[i]?.file ?? `extra ${i}.mp3`;
    const init = await c.init(files[i], name, { mimeType: 'audio/mpeg' });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    expect((await c.chunk(init.body.uploadId, files[i], name, 0)).status).toBe(200);
    ids.push(init.body.uploadId);
  }
  return ids;
}

type Joined = { status: number; body: { data: Record<string, unknown>; message: string; error?: { code: string } } };
const joinRest = (body: Record<string, unknown>, session = admin) =>
  t.rest('POST', '/audio/upload/book', body, session) as Promise<Joined>;

/** The file's chapters once their finalize jobs (queued when the book was joined) are done. */
async function storedChapters(fileId: string) {
  const rows = await settledChapters(t, fileId);
  return rows.map((c) => ({ label: c.label, startTime: c.startTime, status: c.status }));
}

function stagedBooks(app: TestApp = t): string[] {
  return readdirSync(path.join(app.config.dataDir, 'tmp')).filter((n) => n.startsWith('book-'));
}

describe('a book in several files', () => {
  it('orders parts by track number, then by file name as read ("2" before "10")', () => {
    const named = (fileName: string, track: number | null = null) => ({
      fileName,
      tags: { title: null, album: null, track },
    });
    const order = joinOrder([named('Part 10.mp3'), named('Part 2.mp3'), named('b.mp3', 2), named('a.mp3', 1)]);
    expect(order.map((p) => p.fileName)).toEqual(['a.mp3', 'b.mp3', 'Part 2.mp3', 'Part 10.mp3']);
  });

  it('REST: five parts uploaded shuffled become one file, copied frame for frame, a chapter per part', async () => {
    const ids = await uploadParts([3, 0, 4, 2, 1]);
    const res = await joinRest({ uploadIds: ids, isPublic: false });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Book uploaded successfully!');
    expect(res.body.data).toMatchObject({ title: 'The Five Rooms', mimeType: 'audio/mpeg' });

    const fileId = res.body.data.id as string;
    const em = t.app.orm.em.fork();
    const file = await em.findOneOrFail(AudioFile, fileId);
    const stored = resolveStoredPath(t.config.dataDir, file.storagePath);
    const total = parts.reduce((sum, p) => sum + p.seconds, 0);
    expect(file.duration).toBeGreaterThan(total - 0.1);
    expect(file.duration).toBeLessThan(total + 0.5);

    // The same codec, rate and channels, and the very frames of the parts in track order: a copy.
    const probe = await probeAudio(t.config, stored);
    expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 44100, channels: 'mono' });
    const expectedFrames: string[] = [];
    for (const part of parts) expectedFrames.push(...(await audioFrames(path.join(dir, part.file))));
    expect(await audioFrames(stored)).toEqual(expectedFrames);

    const chapters = await storedChapters(fileId);
    expect(chapters.map((c) => c.label)).toEqual(parts.map((p) => p.title));
    // Queued for finalizing as the book was joined: ready with no finalize request.
    expect(chapters.every((c) => c.status === 'ready')).toBe(true);
    let start = 0;
    for (const [i, part] of parts.entries()) {
      expect(chapters[i].startTime, part.title).toBeCloseTo(start, 0);
      expect(Math.abs(chapters[i].startTime - start)).toBeLessThan(0.1 * (i + 1));
      start += part.seconds;
    }

    // The cover of part 3, the only one with a cover; the parts are gone, the uploads completed.
    const cover = await em.findOneOrFail(Cover, { file: fileId });
    expect(readFileSync(path.join(t.config.dataDir, cover.path!)).equals(readFileSync(coverPath))).toBe(true);
    const sessions = await em.find(UploadSession, { id: { $in: ids } });
    expect(sessions.map((s) => [s.status, s.file?.id])).toEqual(ids.map(() => [UploadStatus.completed, fileId]));
    for (const id of ids) expect(existsSync(uploadDir(t, id))).toBe(false);
    expect(stagedBooks()).toEqual([]);
  });

  it('GraphQL: the order given is kept, and a typed title wins over the album tag', async () => {
    const ids = await uploadParts([1, 0, 2]);
    const res = await t.gql<{
      joinBookUpload: { title: string; duration: number; chapters: { label: string; startTime: number }[] };
    }>(
      'mutation($input: JoinBookUploadInput!) { joinBookUpload(input: $input) { title duration chapters { label startTime } } }',
      { input: { uploadIds: ids, order: 'given', title: 'Rooms, Rearranged' } },
      admin,
    );
    expect(res.errors).toBeUndefined();
    const book = res.data!.joinBookUpload;
    expect(book.title).toBe('Rooms, Rearranged');
    expect(book.chapters.map((c) => c.label)).toEqual(['The Kitchen', 'The Hall', 'The Stair']);
    expect(book.chapters[1].startTime).toBeCloseTo(3, 0);
    expect(book.duration).toBeCloseTo(7.5, 0);
  });

  it('GraphQL and REST show the title, author, narrator, series, cover and chapters read from the parts', async () => {
    const ids = await uploadParts([4, 2, 0, 3, 1]);
    const res = await t.gql<{ joinBookUpload: { id: string } }>(
      'mutation($input: JoinBookUploadInput!) { joinBookUpload(input: $input) { id } }',
      { input: { uploadIds: ids } },
      admin,
    );
    expect(res.errors).toBeUndefined();
    const id = res.data!.joinBookUpload.id;

    const gql = await t.gql<{
      audioFile: {
        title: string;
        authors: { name: string }[];
        narrators: { name: string }[];
        series: { series: { name: string }; position: string | null } | null;
        coverUrl: string | null;
        chapters: { label: string }[];
      };
    }>(
      `query($id: ID!) { audioFile(id: $id) { title authors { name } narrators { name }
        series { series { name } position } coverUrl chapters { label } } }`,
      { id },
      admin,
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data!.audioFile).toMatchObject({
      title: 'The Five Rooms',
      authors: [{ name: 'Ada Writer' }],
      narrators: [{ name: 'Nora Reader' }],
      series: { series: { name: 'The Houses' }, position: '3' },
      chapters: parts.map((p) => ({ label: p.title })),
    });
    expect(gql.data!.audioFile.coverUrl).toBeTruthy();

    const file = await t.rest<{ data: { title: string; coverUrl: string | null } }>(
      'GET',
      `/files/${id}`,
      undefined,
      admin,
    );
    expect(file.status).toBe(200);
    expect(file.body.data.title).toBe('The Five Rooms');
    const cover = await t.rest('GET', file.body.data.coverUrl!.replace(/^\/api\/v1/, ''), undefined, admin);
    expect(cover.status).toBe(200);
    const book = await t.rest<{
      data: { authors: { name: string }[]; narrators: { name: string }[]; series: { name: string; position: string } };
    }>('GET', `/files/${id}/book`, undefined, admin);
    expect(book.body.data).toMatchObject({
      authors: [{ name: 'Ada Writer' }],
      narrators: [{ name: 'Nora Reader' }],
      series: { name: 'The Houses', position: '3' },
    });
    const chapters = await t.rest<{ data: { label: string }[] }>('GET', `/files/${id}/chapters`, undefined, admin);
    expect(chapters.status).toBe(200);
    expect(chapters.body.data.map((c) => c.label)).toEqual(parts.map((p) => p.title));
  });

  it('a corrupt part fails the join: nothing is registered, the parts stay intact, and a retry works', async () => {
    const junk = Buffer.alloc(300_000, 7);
    const files = [...bytes, junk];
    const ids = await uploadParts([0, 5, 1], admin, files);
    const before = await t.app.orm.em.fork().count(AudioFile);

    const failed = await joinRest({ uploadIds: ids });
    expect(failed.status).toBe(415);
    expect(failed.body.error?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(JSON.stringify(failed.body)).toContain('The part \\"extra 5.mp3\\" is not audio');
    expect(await t.app.orm.em.fork().count(AudioFile)).toBe(before);
    expect(stagedBooks()).toEqual([]);
    const sessions = await t.app.orm.em.fork().find(UploadSession, { id: { $in: ids } });
    expect(sessions.map((s) => s.status)).toEqual([UploadStatus.active, UploadStatus.active, UploadStatus.active]);
    for (const [i, id] of ids.entries()) {
      expect(sha256(readFileSync(path.join(uploadDir(t, id), 'data')))).toBe(sha256(files[[0, 5, 1][i]]));
    }

    // The administrator drops the bad part and joins the rest.
    expect((await chunkedClient(t, admin).cancel(ids[1])).status).toBe(200);
    const retried = await joinRest({ uploadIds: [ids[0], ids[2]] });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(await storedChapters(retried.body.data.id as string)).toMatchObject([
      { label: 'The Hall' },
      { label: 'The Kitchen' },
    ]);
  });

  it('parts in different formats are refused, naming the part, and kept', async () => {
    const wav = path.join(dir, 'odd.wav');
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=200:sample_rate=22050:duration=1', wav]);
    const files = [...bytes, readFileSync(wav)];
    const ids = await uploadParts([0, 5], admin, files);
    const res = await joinRest({ uploadIds: ids });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('cannot be joined without re-encoding: \\"extra 5.mp3\\" is wav');
    for (const id of ids) expect(existsSync(path.join(uploadDir(t, id), 'data'))).toBe(true);
  });

  it('refuses incomplete parts, parts of another administrator, and fewer than two parts', async () => {
    const c = chunkedClient(t, admin);
    const full = await uploadParts([0]);
    const open = (await c.init(bytes[1], parts[1].file, { mimeType: 'audio/mpeg' })).body.uploadId;
    const incomplete = await joinRest({ uploadIds: [full[0], open] });
    expect(incomplete.status).toBe(400);
    expect(JSON.stringify(incomplete.body)).toContain('\\"Rooms 02.mp3\\" is incomplete: 0 of 1 chunks received');

    const other = await createAdminSession(t);
    const theirs = await joinRest({ uploadIds: [full[0], open] }, other);
    expect(theirs.body.error?.code).toBe('FORBIDDEN');

    const one = await joinRest({ uploadIds: [full[0]] });
    expect(one.status).toBe(400);
    expect(JSON.stringify(one.body)).toContain('A book in parts needs at least 2 parts');
  });

  it('ffmpeg failing mid-join leaves no file, no half-written book and the parts for another try', async () => {
    // An ffmpeg that probes as usual but fails every join, as a full disk or a broken part would.
    const failing = path.join(dir, 'failing-ffmpeg.sh');
    writeFileSync(
      failing,
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = concat ] && { echo "Invalid data found when processing input" >&2; exit 1; }; done\nexec '${ffmpegBin}' "$@"\n`,
    );
    chmodSync(failing, 0o755);
    const app = await startTestApp({ env: { FFMPEG_PATH: failing } });
    try {
      const session = await createAdminSession(app);
      const c = chunkedClient(app, session);
      const ids: string[] = [];
      for (const i of [0, 1]) {
        const init = await c.init(bytes[i], parts[i].file, { mimeType: 'audio/mpeg' });
        expect((await c.chunk(init.body.uploadId, bytes[i], parts[i].file, 0)).status).toBe(200);
        ids.push(init.body.uploadId);
      }
      const res = (await app.rest('POST', '/audio/upload/book', { uploadIds: ids }, session)) as Joined;
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        'The parts could not be joined (Invalid data found when processing input); they are kept, so the join can be tried again',
      );
      expect(await app.app.orm.em.fork().count(AudioFile)).toBe(0);
      expect(stagedBooks(app)).toEqual([]);
      expect(existsSync(path.join(app.config.dataDir, 'audio'))).toBe(false);
      const sessions = await app.app.orm.em.fork().find(UploadSession, { id: { $in: ids } });
      expect(sessions.map((s) => s.status)).toEqual([UploadStatus.active, UploadStatus.active]);
      for (const [i, id] of ids.entries()) {
        expect(sha256(readFileSync(path.join(uploadDir(app, id), 'data')))).toBe(sha256(bytes[i]));
      }
    } finally {
      await app.close();
    }
  });
});
