import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addCover, createAudioFile, grantFile, PNG_BYTES } from '../../test/library-fixtures.js';
import { THUMBNAIL_EDGE } from './cover-thumbnail.js';
import { Cover, CoverStorage } from './cover.entity.js';

let t: TestApp;
let admin: Session;
let photo: Buffer;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  // A photo-like cover of a few hundred KB: noise does not compress, as real covers barely do.
  photo = await sharp({
    create: {
      width: 1400,
      height: 1000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
});
afterAll(async () => {
  await t?.close();
});

interface CoverFields {
  id: string;
  coverImagePath: string | null;
  coverImageBase64: string | null;
  coverUrl: string | null;
  coverThumbnailUrl: string | null;
}
const COVER_FIELDS = 'id coverImagePath coverImageBase64 coverUrl coverThumbnailUrl';

async function libraryItem(session: Session, title: string): Promise<CoverFields> {
  const res = await t.gql<{ audioFiles: { items: CoverFields[] } }>(
    `query ($s: String) { audioFiles(search: $s) { items { ${COVER_FIELDS} } } }`,
    { s: title },
    session,
  );
  expect(res.errors).toBeUndefined();
  return res.data!.audioFiles.items[0];
}

/** GET of a cover URL as the web app sends it: bearer token and device id, optionally a validator. */
function getCover(url: string, session: Session, etag?: string): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${session.token}`, 'x-device-id': session.deviceId };
  if (etag) headers['if-none-match'] = etag;
  return fetch(`${t.url}${url}`, { headers });
}

async function uploadCover(fileId: string, storage: CoverStorage, bytes: Buffer, type = 'image/jpeg') {
  const form = new FormData();
  form.set('coverStorageType', storage);
  form.set('cover', new Blob([bytes], { type }), 'cover');
  const res = await t.rest<{ data: CoverFields }>('PUT', `/admin/files/${fileId}`, form, admin);
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('covers', () => {
  it('serves a file-stored cover with its type and caching headers, only to those who may see the file', async () => {
    const file = await createAudioFile(t, { title: 'Covered' });
    await addCover(t, file.id, CoverStorage.file);
    const item = await libraryItem(admin, 'Covered');
    expect(item).toMatchObject({
      coverImagePath: `/api/v1/files/cover/${file.id}`,
      coverImageBase64: null,
      coverUrl: `/api/v1/files/cover/${file.id}`,
    });
    const res = await getCover(item.coverUrl!, admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    expect((await getCover(item.coverUrl!, admin, res.headers.get('etag')!)).status).toBe(304);

    const stranger = await signIn(t, (await createUser(t)).email);
    expect((await getCover(item.coverUrl!, stranger)).status).toBe(404);
    expect((await t.rest('GET', `/files/cover/${file.id}`)).status).toBe(401);
  });

  it('lists an inline cover by URL, not by its bytes, and keeps the bytes on the single file', async () => {
    const file = await createAudioFile(t, { title: 'Inline cover', isPublic: true });
    await addCover(t, file.id, CoverStorage.base64);
    const listener = await signIn(t, (await createUser(t)).email);
    const dataUrl = `data:image/png;base64,${PNG_BYTES.toString('base64')}`;

    const item = await libraryItem(listener, 'Inline cover');
    expect(item).toMatchObject({
      coverImagePath: null,
      coverImageBase64: null,
      coverUrl: `/api/v1/files/cover/${file.id}`,
    });
    const rest = await t.rest<{ data: CoverFields[] }>('GET', '/files?search=Inline%20cover', undefined, listener);
    expect(rest.body.data[0]).toMatchObject({ coverImageBase64: null, coverUrl: item.coverUrl });
    const adminList = await t.rest<{ data: CoverFields[] }>(
      'GET',
      '/admin/files?search=Inline%20cover',
      undefined,
      admin,
    );
    expect(adminList.body.data[0]).toMatchObject({ coverImageBase64: null, coverUrl: item.coverUrl });

    const single = await t.gql<{ audioFile: CoverFields }>(
      `query ($id: ID!) { audioFile(id: $id) { ${COVER_FIELDS} } }`,
      { id: file.id },
      listener,
    );
    expect(single.data?.audioFile.coverImageBase64).toBe(dataUrl);
    const restSingle = await t.rest<{ data: CoverFields }>('GET', `/files/${file.id}`, undefined, listener);
    expect(restSingle.body.data.coverImageBase64).toBe(dataUrl);

    const res = await getCover(item.coverUrl!, listener);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    expect((await getCover(item.coverUrl!, listener, res.headers.get('etag')!)).status).toBe(304);
  });

  it('names no cover URL for a file without a cover', async () => {
    await createAudioFile(t, { title: 'Bare file' });
    expect(await libraryItem(admin, 'Bare file')).toMatchObject({ coverUrl: null, coverThumbnailUrl: null });
  });

  for (const storage of [CoverStorage.file, CoverStorage.base64]) {
    it(`makes a card-sized thumbnail of an uploaded ${storage} cover and serves it by its own URL`, async () => {
      const file = await createAudioFile(t, { title: `Thumb ${storage}` });
      const listener = await createUser(t);
      await grantFile(t, listener.id, [file.id]);
      const session = await signIn(t, listener.email);
      await uploadCover(file.id, storage, photo);

      const item = await libraryItem(session, `Thumb ${storage}`);
      expect(item.coverThumbnailUrl).toBe(`/api/v1/files/cover/${file.id}?size=thumbnail`);
      // The thumbnail is made by a background job; until it is there the original stands in.
      const thumb = await vi.waitFor(
        async () => {
          const res = await getCover(item.coverThumbnailUrl!, session);
          expect(res.headers.get('content-type')).toBe('image/webp');
          return res;
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('cache-control')).toBe('private, no-cache');
      const bytes = Buffer.from(await thumb.arrayBuffer());
      const shape = await sharp(bytes).metadata();
      expect(shape.format).toBe('webp');
      // The photo's 1400 x 1000, fitted whole (not cropped) into the thumbnail square.
      expect([shape.width, shape.height]).toEqual([THUMBNAIL_EDGE, Math.round((THUMBNAIL_EDGE * 1000) / 1400)]);
      expect(bytes.length).toBeLessThan(photo.length / 3);

      const full = await getCover(item.coverUrl!, session);
      expect(Buffer.from(await full.arrayBuffer()).equals(photo)).toBe(true);
      expect(full.headers.get('etag')).not.toBe(thumb.headers.get('etag'));
      expect((await getCover(item.coverThumbnailUrl!, session, thumb.headers.get('etag')!)).status).toBe(304);
      // The original's validator does not pass for the thumbnail.
      expect((await getCover(item.coverThumbnailUrl!, session, full.headers.get('etag')!)).status).toBe(200);
    });
  }

  it('serves a small cover, or one stored before thumbnails, as its own thumbnail', async () => {
    const small = await createAudioFile(t, { title: 'Small cover' });
    await uploadCover(small.id, CoverStorage.base64, PNG_BYTES, 'image/png');
    const old = await createAudioFile(t, { title: 'Old cover' });
    await addCover(t, old.id, CoverStorage.file, photo);
    for (const [file, original] of [
      [small, PNG_BYTES],
      [old, photo],
    ] as [typeof small, Buffer][]) {
      const res = await getCover(`/api/v1/files/cover/${file.id}?size=thumbnail`, admin);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(original)).toBe(true);
    }
    expect((await t.rest('GET', `/files/cover/${small.id}?size=huge`, undefined, admin)).status).toBe(400);
  });

  it('removes the thumbnail from disk with its cover, when replaced and when removed', async () => {
    const file = await createAudioFile(t, { title: 'Replaced cover' });
    const coversDir = path.join(t.config.dataDir, 'covers');
    const onDisk = () => readdirSync(coversDir).filter((name) => name.startsWith(file.id));
    await uploadCover(file.id, CoverStorage.file, photo);
    // The original at once, its thumbnail once the job has made it.
    await vi.waitFor(() => expect(onDisk()).toHaveLength(2), { timeout: 20_000, interval: 100 });
    const first = onDisk();
    await uploadCover(file.id, CoverStorage.file, photo);
    // The new original and, once made, its thumbnail; the first two gone (a thumbnail job of the
    // first cover still running when it was replaced removes what it wrote itself).
    // The second cover's own thumbnail recorded (a late job of the first may still write and
    // remove a file of its own meanwhile).
    const recordedThumbnail = async () =>
      (await t.app.orm.em.fork().findOne(Cover, { file: file.id }))?.thumbnailPath ?? null;
    await vi.waitFor(
      async () => {
        expect(onDisk()).toHaveLength(2);
        expect(onDisk().filter((name) => first.includes(name))).toEqual([]);
        const thumbnail = await recordedThumbnail();
        expect(thumbnail && onDisk().includes(path.basename(thumbnail))).toBe(true);
      },
      { timeout: 20_000, interval: 100 },
    );
    await uploadCover(file.id, CoverStorage.base64, photo);
    // Removed with the cover; a job still running for it removes what it wrote itself.
    await vi.waitFor(() => expect(onDisk()).toEqual([]), { timeout: 20_000, interval: 100 });
    const item = await libraryItem(admin, 'Replaced cover');
    await vi.waitFor(
      async () =>
        expect((await getCover(item.coverThumbnailUrl!, admin)).headers.get('content-type')).toBe('image/webp'),
      { timeout: 20_000, interval: 100 },
    );
  });
});
