import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../../test/count-queries.js';
import { createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFile, createAudioFiles, grantFile } from '../../test/library-fixtures.js';
import { FileAccess } from '../access/file-access.entity.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface Progress {
  fileId: string;
  position: number;
  finished: boolean;
  updatedAt: string;
}

const SAVE =
  'mutation ($f: ID!, $i: SaveProgressInput!) { saveProgress(fileId: $f, input: $i) { fileId position finished } }';
const CONTINUE = '{ continueListening { id title progress { position finished } } }';

const put = (fileId: string, body: unknown, s: Session) =>
  t.rest<{ data: Progress; error?: { code: string } }>('PUT', `/progress/${fileId}`, body, s);

/** Waits out the per-session save limit (a fixed one-second window). */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

describe('listening progress', () => {
  it('keeps a position per user, clamps it, marks the end finished and restores it on a new session', async () => {
    const file = await createAudioFile(t, { duration: 600, isPublic: true });
    const alice = await createUser(t);
    const first = await signIn(t, alice.email);
    const bob = await signIn(t, (await createUser(t)).email);

    const saved = await put(file.id, { position: 120.5 }, first);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ fileId: file.id, position: 120.5, finished: false });

    // A sign-in from another device later (the first one signed out) reads the same position.
    await t.rest('POST', '/auth/logout', undefined, first);
    const later = await signIn(t, alice.email);
    const restored = await t.gql<{ audioFile: { progress: Progress | null } }>(
      'query ($id: ID!) { audioFile(id: $id) { progress { position finished } } }',
      { id: file.id },
      later,
    );
    expect(restored.data?.audioFile.progress).toEqual({ position: 120.5, finished: false });
    expect((await t.rest<{ data: Progress }>('GET', `/progress/${file.id}`, undefined, later)).body.data).toMatchObject(
      {
        position: 120.5,
      },
    );

    // Bob sees the same public file but none of Alice's progress.
    expect((await t.rest('GET', `/progress/${file.id}`, undefined, bob)).body).toMatchObject({ data: null });
    const bobs = await t.gql<{ audioFile: { progress: Progress | null } }>(
      'query ($id: ID!) { audioFile(id: $id) { progress { position } } }',
      { id: file.id },
      bob,
    );
    expect(bobs.data?.audioFile.progress).toBeNull();

    const past = await t.gql<{ saveProgress: Progress }>(SAVE, { f: file.id, i: { position: 9999 } }, later);
    expect(past.data?.saveProgress).toEqual({ fileId: file.id, position: 600, finished: true });
    const nearEnd = await put(file.id, { position: 597 }, later);
    expect(nearEnd.body.data).toMatchObject({ position: 597, finished: true });
    const ended = await put(file.id, { position: 10, finished: true }, later);
    expect(ended.body.data).toMatchObject({ position: 10, finished: true });
  });

  it('answers NOT_FOUND for files the caller may not see and BAD_USER_INPUT for bad positions', async () => {
    const hidden = await createAudioFile(t);
    const expired = await createAudioFile(t);
    const user = await createUser(t);
    await grantFile(t, user.id, [expired.id], { expiresAt: new Date(Date.now() - 1000) });
    const s = await signIn(t, user.email);
    for (const id of [hidden.id, expired.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await put(id, { position: 5 }, s);
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ message: 'Audio file not found' });
      expect((await t.rest('GET', `/progress/${id}`, undefined, s)).status).toBe(404);
    }
    await nextSecond();
    const gql = await t.gql(SAVE, { f: hidden.id, i: { position: 5 } }, s);
    expect(gql.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const file = await createAudioFile(t, { isPublic: true });
    expect((await put(file.id, { position: -1 }, s)).body).toMatchObject({ message: 'position must be 0 or more' });
    expect((await put(file.id, { position: 'soon' }, s)).status).toBe(400);
    expect((await t.rest('PUT', `/progress/${file.id}`, { position: 1 })).status).toBe(401);
  });

  it('limits saves per device session with RATE_LIMITED', async () => {
    const file = await createAudioFile(t, { isPublic: true, duration: 300 });
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    await nextSecond();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => put(file.id, { position: i + 1 }, s)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((code) => code === 200).length).toBeLessThanOrEqual(4);
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(refused?.body.error).toHaveProperty('message', expect.stringMatching(/Too many progress updates/));
    await nextSecond();
    expect((await put(file.id, { position: 42 }, s)).status).toBe(200);
  });

  it('lists files in progress, most recent first, and drops one whose grant is revoked', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    const [a, b, c, done] = await createAudioFiles(t, 4, { duration: 1000 });
    const grants = await grantFile(t, user.id, [a.id, b.id, c.id, done.id]);
    for (const [file, position] of [
      [a, 100],
      [b, 200],
      [done, 999],
      [c, 300],
    ] as const) {
      await nextSecond();
      expect((await put(file.id, { position }, s)).status).toBe(200);
    }
    const list = await t.gql<{ continueListening: { id: string; progress: { position: number } }[] }>(CONTINUE, {}, s);
    expect(list.data?.continueListening.map((f) => [f.id, f.progress.position])).toEqual([
      [c.id, 300],
      [b.id, 200],
      [a.id, 100],
    ]);
    const rest = await t.rest<{ data: { id: string; progress: Progress }[] }>('GET', '/progress', undefined, s);
    expect(rest.body.data.map((f) => f.id)).toEqual([c.id, b.id, a.id]);

    const em = t.app.orm.em.fork();
    await em.nativeUpdate(FileAccess, { id: grants[1].id }, { canView: false });
    const after = await t.gql<{ continueListening: { id: string }[] }>(CONTINUE, {}, s);
    expect(after.data?.continueListening.map((f) => f.id)).toEqual([c.id, a.id]);
  });

  it('reads progress for a whole library page in one statement and sorts the library', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    const files = await createAudioFiles(t, 12, { duration: 500 });
    await grantFile(
      t,
      user.id,
      files.map((f) => f.id),
    );
    const titled = files.slice(0, 3);
    const em = t.app.orm.em.fork();
    for (const [i, title] of ['banana', 'Apple', 'cherry'].entries()) {
      await em.nativeUpdate('AudioFile', { id: titled[i].id }, { title: `${title} ${user.id}`, duration: 30 - i });
    }
    await nextSecond();
    await put(files[5].id, { position: 10 }, s);
    await nextSecond();
    await put(files[7].id, { position: 10 }, s);

    const page = (sort: string) =>
      t.gql<{ audioFiles: { items: { id: string; progress: { position: number } | null }[] } }>(
        `{ audioFiles(limit: 100, search: "${user.id}", sort: ${sort}) { items { id progress { position } } } }`,
        {},
        s,
      );
    expect((await page('TITLE')).data?.audioFiles.items.map((f) => f.id)).toEqual([
      titled[1].id,
      titled[0].id,
      titled[2].id,
    ]);
    expect((await page('DURATION')).data?.audioFiles.items.map((f) => f.id)).toEqual([
      titled[2].id,
      titled[1].id,
      titled[0].id,
    ]);

    const library = '{ audioFiles(limit: 100, sort: RECENTLY_PLAYED) { items { id progress { position } } } }';
    await t.gql(library, {}, s);
    const { result, statements } = await countQueries(() =>
      t.gql<{ audioFiles: { items: { id: string; progress: { position: number } | null }[] } }>(library, {}, s),
    );
    const items = result.data?.audioFiles.items ?? [];
    expect(items.slice(0, 2).map((f) => f.id)).toEqual([files[7].id, files[5].id]);
    expect(items.filter((f) => f.progress).length).toBe(2);
    expect(statements.filter((q) => /from listening_progress where/.test(q))).toHaveLength(1);

    const bad = await t.rest('GET', '/files?sort=loudest', undefined, s);
    expect(bad.status).toBe(400);
    const rest = await t.rest<{ data: { id: string }[] }>('GET', `/files?sort=title&search=${user.id}`, undefined, s);
    expect(rest.body.data.map((f) => f.id)).toEqual([titled[1].id, titled[0].id, titled[2].id]);
  });
});
