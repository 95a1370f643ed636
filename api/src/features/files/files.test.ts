import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAccess } from '../access/file-access.entity.js';
import { Chapter } from '../chapters/chapter.entity.js';
import { ChapterSegment } from '../chapters/chapter-segment.entity.js';
import { Checkpoint } from '../checkpoints/checkpoint.entity.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addChapter, addCover, createAudioFile, grantFile, PNG_BYTES } from '../../test/library-fixtures.js';
import { subscribeSecurityEvents } from '../../test/subscriptions.js';
import { AudioFile } from './audio-file.entity.js';
import { Cover, CoverStorage } from './cover.entity.js';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
});

type FileItem = { id: string; title: string; coverImagePath: string | null; coverImageBase64: string | null };
const LIBRARY = `query ($search: String, $limit: Int) { audioFiles(search: $search, limit: $limit) { total items { id title coverImagePath coverImageBase64 chapters { label } } } }`;

async function library(session: Session, search?: string) {
  const res = await t.gql<{ audioFiles: { total: number; items: FileItem[] } }>(
    LIBRARY,
    { search, limit: 100 },
    session,
  );
  expect(res.errors).toBeUndefined();
  return res.data!.audioFiles;
}

describe('library and visibility', () => {
  it('shows public files and live grants only; admins see everything', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    const tag = `vis-${Date.now()}`;
    const pub = await createAudioFile(t, { title: `${tag} public`, isPublic: true });
    const granted = await createAudioFile(t, { title: `${tag} granted` });
    const expired = await createAudioFile(t, { title: `${tag} expired` });
    const revoked = await createAudioFile(t, { title: `${tag} revoked` });
    const hidden = await createAudioFile(t, { title: `${tag} hidden` });
    await grantFile(t, user.id, [granted.id]);
    await grantFile(t, user.id, [expired.id], { expiresAt: new Date(Date.now() - 1000) });
    await grantFile(t, user.id, [revoked.id], { canView: false });

    const mine = await library(session, tag);
    expect(mine.items.map((f) => f.id).sort()).toEqual([pub.id, granted.id].sort());
    expect(mine.total).toBe(2);

    const rest = await t.rest<{ data: FileItem[]; total: number }>('GET', `/files?search=${tag}`, undefined, session);
    expect(rest.status).toBe(200);
    expect(rest.body.data.map((f) => f.id).sort()).toEqual([pub.id, granted.id].sort());

    for (const id of [expired.id, revoked.id, hidden.id]) {
      const one = await t.rest('GET', `/files/${id}`, undefined, session);
      expect(one.status).toBe(404);
      const gql = await t.gql('query ($id: ID!) { audioFile(id: $id) { id } }', { id }, session);
      expect(gql.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
    expect((await library(admin, tag)).total).toBe(5);
  });

  it('searches title and description case-insensitively, with %, _ and \\ taken literally', async () => {
    const tag = `srch${Date.now()}`;
    const a = await createAudioFile(t, { title: `${tag} 100% Pure_Jazz`, isPublic: true });
    const b = await createAudioFile(t, { title: `${tag} other`, description: 'C:\\Music\\MORNING', isPublic: true });
    await createAudioFile(t, { title: `${tag} 100 percent PureXJazz`, isPublic: true });
    const ids = async (term: string) => (await library(admin, term)).items.map((f) => f.id);
    expect(await ids(`${tag} 100%`)).toEqual([a.id]);
    expect(await ids('pure_jazz')).toEqual([a.id]);
    expect(await ids('c:\\music\\morning')).toEqual([b.id]);
    expect(await ids(`${tag.toUpperCase()} OTHER`)).toEqual([b.id]);
    expect(await ids("' or 1=1 --")).toEqual([]);
    expect(await ids('.*')).toEqual([]);
  });

  it('answers one file with its chapters in order, over REST and GraphQL', async () => {
    const file = await createAudioFile(t, { title: 'Chaptered', isPublic: true });
    await addChapter(t, file.id, { label: 'Second', order: 1 });
    await addChapter(t, file.id, { label: 'First', order: 0 });
    const user = await signIn(t, (await createUser(t)).email);
    const rest = await t.rest<{ data: { title: string; chapters: { label: string }[] } }>(
      'GET',
      `/files/${file.id}`,
      undefined,
      user,
    );
    expect(rest.body.data.title).toBe('Chaptered');
    expect(rest.body.data.chapters.map((c) => c.label)).toEqual(['First', 'Second']);
    const gql = await t.gql<{ audioFile: { chapters: { label: string }[] } }>(
      'query ($id: ID!) { audioFile(id: $id) { chapters { label } } }',
      { id: file.id },
      user,
    );
    expect(gql.data?.audioFile.chapters.map((c) => c.label)).toEqual(['First', 'Second']);
  });

  it('rejects ids of the wrong shape as bad input and unknown ids as not found', async () => {
    expect((await t.rest('GET', '/files/not-a-uuid', undefined, admin)).status).toBe(400);
    expect((await t.rest('GET', '/files/00000000-0000-4000-8000-000000000000', undefined, admin)).status).toBe(404);
  });
});

describe('admin files', () => {
  it('lists with search over filename and a public/private filter, with a total', async () => {
    const tag = `adm${Date.now()}`;
    const pub = await createAudioFile(t, { title: 'A', filename: `${tag}-a.mp3`, isPublic: true });
    const priv = await createAudioFile(t, { title: 'B', filename: `${tag}-b.mp3` });
    const query = `query ($s: String, $st: FileStatusFilter) { adminFiles(search: $s, status: $st, limit: 5) { total items { id } } }`;
    const run = async (st: string) =>
      (await t.gql<{ adminFiles: { total: number; items: { id: string }[] } }>(query, { s: tag, st }, admin)).data!
        .adminFiles;
    expect((await run('ALL')).total).toBe(2);
    expect((await run('PUBLIC')).items.map((f) => f.id)).toEqual([pub.id]);
    expect((await run('PRIVATE')).items.map((f) => f.id)).toEqual([priv.id]);
    const rest = await t.rest<{ data: { id: string }[]; total: number }>(
      'GET',
      `/admin/files?search=${tag}&status=private`,
      undefined,
      admin,
    );
    expect(rest.body.data.map((f) => f.id)).toEqual([priv.id]);
    expect(rest.body.total).toBe(1);
  });

  it('updates title, description and public flag, and replaces the cover through multipart', async () => {
    const file = await createAudioFile(t, { title: 'Before' });
    const form = new FormData();
    form.set('title', 'After');
    form.set('description', 'New words');
    form.set('isPublic', 'true');
    form.set('coverStorageType', 'file');
    form.set('cover', new Blob([PNG_BYTES], { type: 'image/png' }), 'cover.png');
    const res = await t.rest<{ data: { title: string; isPublic: boolean; coverImagePath: string }; message: string }>(
      'PUT',
      `/admin/files/${file.id}`,
      form,
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: 'File updated successfully!',
      data: { title: 'After', isPublic: true, coverImagePath: `/api/v1/files/cover/${file.id}` },
    });
    const coversDir = path.join(t.config.dataDir, 'covers');
    const firstCover = readdirSync(coversDir).filter((n) => n.startsWith(file.id));
    expect(firstCover).toHaveLength(1);

    const inline = new FormData();
    inline.set('coverStorageType', 'base64');
    inline.set('cover', new Blob([PNG_BYTES], { type: 'image/png' }), 'cover.png');
    const second = await t.rest<{ data: { coverImageBase64: string; coverImagePath: string | null } }>(
      'PUT',
      `/admin/files/${file.id}`,
      inline,
      admin,
    );
    expect(second.body.data.coverImagePath).toBeNull();
    expect(second.body.data.coverImageBase64).toMatch(/^data:image\/png;base64,/);
    // The replaced file-stored image is gone from disk.
    expect(readdirSync(coversDir).filter((n) => n.startsWith(file.id))).toHaveLength(0);

    const removed = await t.gql<{ updateFile: { coverImageBase64: string | null; title: string } }>(
      'mutation ($id: ID!) { updateFile(id: $id, input: { removeCover: true }) { title coverImageBase64 } }',
      { id: file.id },
      admin,
    );
    expect(removed.errors).toBeUndefined();
    expect(removed.data?.updateFile).toEqual({ title: 'After', coverImageBase64: null });
  });

  it('refuses a cover that is not an image by its bytes, or larger than 5 MB', async () => {
    const file = await createAudioFile(t);
    const fake = new FormData();
    fake.set('cover', new Blob([Buffer.from('<?php echo 1; ?>')], { type: 'image/png' }), 'evil.png');
    const bad = await t.rest('PUT', `/admin/files/${file.id}`, fake, admin);
    expect(bad.status).toBe(415);
    expect(bad.body).toMatchObject({ message: 'Please select an image file (JPG, PNG, etc.)' });

    const big = new FormData();
    big.set('cover', new Blob([PNG_BYTES, Buffer.alloc(5 * 1024 * 1024)], { type: 'image/png' }), 'big.png');
    const tooBig = await t.rest('PUT', `/admin/files/${file.id}`, big, admin);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ message: 'Cover image must be less than 5MB' });

    const blank = await t.rest('PUT', `/admin/files/${file.id}`, { title: '   ' }, admin);
    expect(blank.status).toBe(400);
  });

  it('deletes a file with its audio, cover, chapters, segments, grants and checkpoints', async () => {
    const user = await createUser(t);
    const file = await createAudioFile(t);
    await addCover(t, file.id, CoverStorage.file);
    const chapter = await addChapter(t, file.id);
    await grantFile(t, user.id, [file.id]);
    const session = await signIn(t, user.email);
    expect(
      (await t.rest('POST', '/checkpoints', { fileId: file.id, timestamp: 3, name: 'Here' }, session)).status,
    ).toBe(201);

    const res = await t.rest('DELETE', `/admin/files/${file.id}`, undefined, admin);
    expect(res.body).toMatchObject({ success: true, message: 'File deleted successfully' });
    const data = t.config.dataDir;
    expect(existsSync(path.join(data, file.storagePath))).toBe(false);
    expect(existsSync(path.join(data, 'covers', `${file.id}.png`))).toBe(false);
    expect(existsSync(path.join(data, 'chapters', chapter.id))).toBe(false);
    const em = t.app.orm.em.fork();
    expect(await em.count(AudioFile, { id: file.id })).toBe(0);
    for (const [entity, where] of [
      [Cover, { file: file.id }],
      [Chapter, { file: file.id }],
      [ChapterSegment, { chapter: chapter.id }],
      [FileAccess, { file: file.id }],
      [Checkpoint, { file: file.id }],
    ] as const) {
      expect(await em.count(entity, where as never)).toBe(0);
    }
    expect((await t.rest('DELETE', `/admin/files/${file.id}`, undefined, admin)).status).toBe(404);
  });

  it('tells every user with a live grant at once that a deleted file is gone, and no one else', async () => {
    const file = await createAudioFile(t, { title: 'Going away' });
    const other = await createAudioFile(t, { title: 'Staying a moment' });
    const [grantee, expired, revoked, stranger] = await Promise.all([
      createUser(t, { name: 'Grantee' }),
      createUser(t, { name: 'Expired' }),
      createUser(t, { name: 'Revoked' }),
      createUser(t, { name: 'Stranger' }),
    ]);
    await grantFile(t, grantee.id, [file.id]);
    await grantFile(t, expired.id, [file.id], { expiresAt: new Date(Date.now() - 60_000) });
    await grantFile(t, revoked.id, [file.id], { canView: false });
    // Everyone but the grantee can see the other file: its deletion is the next event they should get.
    for (const user of [expired, revoked, stranger]) await grantFile(t, user.id, [other.id]);

    const streams = await Promise.all(
      [grantee, expired, revoked, stranger].map(async (user) =>
        subscribeSecurityEvents(t.url, await signIn(t, user.email)),
      ),
    );
    try {
      const [granteeStream, ...others] = streams;
      const deleted = await t.gql<{ deleteFile: boolean }>(
        'mutation ($id: ID!) { deleteFile(id: $id) }',
        { id: file.id },
        admin,
      );
      expect(deleted.data?.deleteFile).toBe(true);
      expect(await granteeStream.next()).toEqual({
        type: 'ACCESS_REVOKED',
        message: 'Your access to this file has been revoked.',
        fileId: file.id,
      });

      expect((await t.rest('DELETE', `/admin/files/${other.id}`, undefined, admin)).status).toBe(200);
      for (const stream of others) {
        expect(await stream.next()).toMatchObject({ type: 'ACCESS_REVOKED', fileId: other.id });
      }
      expect(streams.map((s) => s.events.length)).toEqual([1, 1, 1, 1]);
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });
});
