import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestAudio, TINY_PNG } from '../../test/audio-fixtures.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { audioPart, finishPartialPart, startPartialPart, uploadForm } from '../../test/upload-client.js';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { Cover } from '../files/cover.entity.js';

let t: TestApp;
let admin: Session;
let mp3: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  mp3 = await generateTestAudio('mp3', 2, 'Morning Walk.mp3');
});
afterAll(async () => {
  await t?.close();
});

type FileBody = {
  success: boolean;
  message: string;
  data: Record<string, unknown>;
  error?: { code: string; message: string };
};

const filesIn = (dir: string) =>
  existsSync(path.join(t.config.dataDir, dir)) ? readdirSync(path.join(t.config.dataDir, dir)) : [];
const fileCount = () => t.app.orm.em.fork().count(AudioFile, {});

describe('POST /files (multipart upload)', () => {
  it('registers nothing when its administrator was demoted while the bytes were on their way', async () => {
    const uploader = await createAdminSession(t);
    const bytes = readFileSync(mp3);
    const part = { route: '/files', session: uploader, field: 'audio', fileName: 'Late.mp3', bytes, sent: 1000 };
    const req = startPartialPart(t.url, part);
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    const before = await t.app.orm.em.fork().count(AudioFile, {});
    const demoted = await t.rest('PUT', `/admin/users/${uploader.userId}`, { role: 'user' }, admin);
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    finishPartialPart(req, part);
    const res = await answered;
    expect(res.status, res.body).toBe(403);
    expect(await t.app.orm.em.fork().count(AudioFile, {})).toBe(before);
  });

  it('stores real audio with what its bytes say, an inline cover, and an audit entry', async () => {
    const part = audioPart(mp3, 'application/octet-stream');
    const res = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm(
        { title: '', description: 'A test tone', isPublic: 'true', coverStorageType: 'base64' },
        { audio: part, cover: { bytes: TINY_PNG, name: 'c.png', type: 'image/png' } },
      ),
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: 'File uploaded successfully!',
      data: {
        title: 'Morning Walk',
        description: 'A test tone',
        filename: 'Morning Walk.mp3',
        mimeType: 'audio/mpeg',
        isPublic: true,
        size: part.bytes.length,
      },
    });
    expect(res.body.data.duration).toBeGreaterThan(1.9);
    expect(res.body.data.duration).toBeLessThan(2.2);
    expect(res.body.data.coverImageBase64).toBe(`data:image/png;base64,${TINY_PNG.toString('base64')}`);
    expect(JSON.stringify(res.body)).not.toContain('storagePath');

    const em = t.app.orm.em.fork();
    const file = await em.findOneOrFail(AudioFile, { id: res.body.data.id as string });
    expect(file.storagePath).toMatch(/^audio\/[0-9a-f-]+\.mp3$/);
    expect(readFileSync(path.join(t.config.dataDir, file.storagePath)).equals(part.bytes)).toBe(true);
    const audit = await em.findOne(AuditEntry, { action: 'file.uploaded', details: { fileId: file.id } });
    expect(audit?.actorEmail).toBeTruthy();
    expect(filesIn('tmp')).toEqual([]);

    // The same file comes back through GraphQL as the AudioFile type.
    const gql = await t.gql<{ adminFile: { id: string; duration: number; mimeType: string } }>(
      'query($id: ID!) { adminFile(id: $id) { id duration mimeType } }',
      { id: file.id },
      admin,
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data?.adminFile).toMatchObject({ id: file.id, mimeType: 'audio/mpeg' });
  });

  it('stores a file cover under DATA_DIR/covers', async () => {
    const ogg = await generateTestAudio('ogg', 1);
    const res = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm(
        { title: 'With cover', coverStorageType: 'file' },
        { audio: audioPart(ogg, 'audio/ogg'), cover: { bytes: TINY_PNG, name: 'c.png', type: 'image/png' } },
      ),
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ mimeType: 'audio/ogg', title: 'With cover', coverImageBase64: null });
    const cover = await t.app.orm.em.fork().findOneOrFail(Cover, { file: res.body.data.id as string });
    expect(cover.path).toMatch(/^covers\//);
    expect(readFileSync(path.join(t.config.dataDir, cover.path!)).equals(TINY_PNG)).toBe(true);
  });

  it('refuses a non-audio file renamed .mp3 and leaves nothing behind', async () => {
    const before = await fileCount();
    const fake = path.join(path.dirname(mp3), 'notes.mp3');
    writeFileSync(fake, 'These are my meeting notes, not a song.\n'.repeat(2000));
    const res = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm({ title: 'Fake' }, { audio: audioPart(fake, 'audio/mpeg') }),
      admin,
    );
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({
      success: false,
      message: 'Please select an audio file (MP3, WAV, etc.)',
      error: { code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect(await fileCount()).toBe(before);
    expect(filesIn('tmp')).toEqual([]);
  });

  it('enforces the cover rules: image content only, at most 5 MB', async () => {
    const before = await fileCount();
    const audioBefore = filesIn('audio').length;
    const notImage = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm(
        { title: 'Bad cover' },
        {
          audio: audioPart(mp3),
          cover: { bytes: Buffer.from('<svg>not really</svg>'), name: 'c.png', type: 'image/png' },
        },
      ),
      admin,
    );
    expect(notImage.status).toBe(415);
    expect(notImage.body.message).toBe('Please select an image file (JPG, PNG, etc.)');

    const big = Buffer.concat([TINY_PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm(
        { title: 'Big cover' },
        { audio: audioPart(mp3), cover: { bytes: big, name: 'c.png', type: 'image/png' } },
      ),
      admin,
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('Cover image must be less than 5MB');

    const badStorage = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm(
        { title: 'x', coverStorageType: 'cloud' },
        { audio: audioPart(mp3), cover: { bytes: TINY_PNG, name: 'c.png' } },
      ),
      admin,
    );
    expect(badStorage.status).toBe(400);

    expect(await fileCount()).toBe(before);
    expect(filesIn('audio').length).toBe(audioBefore);
    expect(filesIn('tmp')).toEqual([]);
  });

  it('asks for a file when none is sent and refuses a malformed body', async () => {
    const none = await t.rest<FileBody>('POST', '/files', uploadForm({ title: 'Nothing' }), admin);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Please select a file to upload');

    const broken = await t.rest<FileBody>(
      'POST',
      '/files',
      '--xyz\r\nContent-Disposition: form-data; name="audio"; filename="a.mp3"\r\n\r\nabc',
      {
        ...admin,
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      },
    );
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe('Malformed multipart body');
    expect(filesIn('tmp')).toEqual([]);
  });

  it('lets only administrators upload', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    const res = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm({ title: 'Mine' }, { audio: audioPart(mp3) }),
      session,
    );
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('FORBIDDEN');
    const anonymous = await t.rest<FileBody>(
      'POST',
      '/files',
      uploadForm({ title: 'Mine' }, { audio: audioPart(mp3) }),
    );
    expect(anonymous.status).toBe(401);
  });
});
