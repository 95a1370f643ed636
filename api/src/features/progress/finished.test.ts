import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../../test/count-queries.js';
import { createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addCover, createAudioFile, createAudioFiles, grantFile } from '../../test/library-fixtures.js';
import { FileAccess } from '../access/file-access.entity.js';
import { CoverStorage } from '../files/cover.entity.js';

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
  finishedAt: string | null;
}
interface Listed {
  id: string;
  progress: Progress;
}

const FINISHED = '{ finishedBooks(limit: 50) { id progress { position finished finishedAt } } }';
const MARK =
  'mutation ($f: ID!, $done: Boolean!) { markFinished(fileId: $f, finished: $done) { fileId position finished finishedAt } }';

const save = (fileId: string, position: number, s: Session) =>
  t.rest<{ data: Progress }>('PUT', `/progress/${fileId}`, { position }, s);
const mark = (fileId: string, finished: unknown, s: Session) =>
  t.rest<{ data: Progress; message?: string }>('PUT', `/progress/${fileId}/finished`, { finished }, s);
const finishedIds = async (s: Session) =>
  (await t.gql<{ finishedBooks: Listed[] }>(FINISHED, {}, s)).data?.finishedBooks.map((f) => f.id);
const restFinishedIds = async (s: Session) =>
  (await t.rest<{ data: Listed[] }>('GET', '/progress/finished', undefined, s)).body.data.map((f) => f.id);

/** Waits out the per-session save limit (a fixed one-second window). */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

describe('finished books', () => {
  it('finishes a book played to its end, keeps when, and lists it until played again', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    const [first, second] = await createAudioFiles(t, 2, { duration: 600 });
    await grantFile(t, user.id, [first.id, second.id]);

    // The player's end event sends finished: true; a save within a few seconds of the end counts too.
    const ended = await t.gql<{ saveProgress: Progress }>(
      'mutation ($f: ID!) { saveProgress(fileId: $f, input: { position: 600, finished: true }) { position finished finishedAt } }',
      { f: first.id },
      s,
    );
    expect(ended.data?.saveProgress).toMatchObject({ position: 600, finished: true });
    const firstAt = ended.data?.saveProgress.finishedAt;
    expect(firstAt).toEqual(expect.any(String));
    await nextSecond();
    expect((await save(second.id, 597, s)).body.data).toMatchObject({ finished: true });

    expect(await finishedIds(s)).toEqual([second.id, first.id]);
    expect(await restFinishedIds(s)).toEqual([second.id, first.id]);
    // Finished books are not "in progress".
    const cont = await t.rest<{ data: { id: string }[] }>('GET', '/progress', undefined, s);
    expect(cont.body.data.map((f) => f.id)).not.toContain(first.id);

    // A later save at the end keeps the moment it was first finished: the order does not change.
    const again = await save(first.id, 600, s);
    expect(again.body.data).toMatchObject({ finished: true, finishedAt: firstAt });
    expect(await finishedIds(s)).toEqual([second.id, first.id]);

    // "Play again" starts at 0: the book is no longer finished and leaves the shelf.
    await nextSecond();
    expect((await save(first.id, 0, s)).body.data).toMatchObject({ position: 0, finished: false, finishedAt: null });
    expect(await finishedIds(s)).toEqual([second.id]);
  });

  it('marks and unmarks a book finished through GraphQL and REST', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    const file = await createAudioFile(t, { duration: 1200 });
    const other = await createAudioFile(t, { duration: 300 });
    await grantFile(t, user.id, [file.id, other.id]);
    await save(file.id, 300, s);

    const marked = await t.gql<{ markFinished: Progress }>(MARK, { f: file.id, done: true }, s);
    expect(marked.data?.markFinished).toMatchObject({ fileId: file.id, position: 1200, finished: true });
    expect(await finishedIds(s)).toEqual([file.id]);

    await nextSecond();
    // Never played before: marking it finished makes its progress.
    const rest = await mark(other.id, true, s);
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({ position: 300, finished: true });
    expect(await restFinishedIds(s)).toEqual([other.id, file.id]);

    const unmarked = await t.gql<{ markFinished: Progress }>(MARK, { f: file.id, done: false }, s);
    expect(unmarked.data?.markFinished).toMatchObject({ position: 0, finished: false, finishedAt: null });
    expect((await mark(other.id, false, s)).body.data).toMatchObject({ position: 0, finished: false });
    expect(await finishedIds(s)).toEqual([]);
    const read = await t.gql<{ audioFile: { progress: Progress } }>(
      'query ($id: ID!) { audioFile(id: $id) { progress { position finished } } }',
      { id: file.id },
      s,
    );
    expect(read.data?.audioFile.progress).toEqual({ position: 0, finished: false });
  });

  it('keeps each list to the caller and to files they may still see', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const a = await signIn(t, alice.email);
    const b = await signIn(t, bob.email);
    const [kept, revoked, hidden] = await createAudioFiles(t, 3, { duration: 100 });
    const grants = await grantFile(t, alice.id, [kept.id, revoked.id]);
    await grantFile(t, bob.id, [kept.id]);
    await mark(kept.id, true, a);
    await mark(revoked.id, true, a);
    expect(await finishedIds(a)).toEqual([revoked.id, kept.id]);
    // Bob sees the same file but none of Alice's finished books.
    expect(await finishedIds(b)).toEqual([]);

    await t.app.orm.em.fork().nativeUpdate(FileAccess, { id: grants[1].id }, { canView: false });
    expect(await finishedIds(a)).toEqual([kept.id]);
    expect(await restFinishedIds(a)).toEqual([kept.id]);

    await nextSecond();
    for (const id of [hidden.id, revoked.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await mark(id, true, a);
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ message: 'Audio file not found' });
    }
    await nextSecond();
    const gql = await t.gql(MARK, { f: hidden.id, done: true }, a);
    expect(gql.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const bad = await mark(kept.id, 'yes', a);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/finished must be true or false/);
    expect((await t.rest('GET', '/progress/finished?limit=0', undefined, a)).status).toBe(400);
    expect((await t.rest('PUT', `/progress/${kept.id}/finished`, { finished: true })).status).toBe(401);
    expect((await t.rest('GET', '/progress/finished')).status).toBe(401);
  });

  it('lists the shelf with covers and progress in a fixed number of statements', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    const files = await createAudioFiles(t, 6, { duration: 50 });
    await grantFile(
      t,
      user.id,
      files.map((f) => f.id),
    );
    for (const [i, file] of files.entries()) {
      if (i % 4 === 0) await nextSecond();
      await addCover(t, file.id, CoverStorage.base64);
      await mark(file.id, true, s);
    }
    const query = '{ finishedBooks(limit: 50) { id coverThumbnailUrl progress { finished } } }';
    const { result, statements } = await countQueries(() =>
      t.gql<{ finishedBooks: { id: string; coverThumbnailUrl: string | null; progress: { finished: boolean } }[] }>(
        query,
        {},
        s,
      ),
    );
    const listed = result.data?.finishedBooks ?? [];
    expect(listed.map((f) => f.id)).toEqual(files.map((f) => f.id).reverse());
    expect(listed.every((f) => f.progress.finished && f.coverThumbnailUrl)).toBe(true);
    expect(statements.filter((q) => /listening_progress/.test(q))).toHaveLength(1);
    const { statements: more } = await countQueries(() =>
      t.gql('{ finishedBooks(limit: 2) { id coverThumbnailUrl progress { finished } } }', {}, s),
    );
    expect(more.length).toBe(statements.length);
  });
});
