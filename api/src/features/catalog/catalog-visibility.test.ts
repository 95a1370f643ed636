import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFile, grantFile } from '../../test/library-fixtures.js';

/**
 * Who sees which authors, narrators, series and genres: a listener sees a record only through a
 * book they may see (public, or a live grant), and counts count only those books.
 */
let t: TestApp;
let admin: Session;
let listener: Session;
let stranger: Session;
const ids = {} as Record<'hidden' | 'granted' | 'expired' | 'open1' | 'open2' | 'open3', string>;

async function setBook(fileId: string, book: Record<string, unknown>) {
  const res = await t.rest('PUT', `/admin/files/${fileId}/book`, book, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  const user = await createUser(t, { name: 'Listener' });
  listener = await signIn(t, user.email);
  stranger = await signIn(t, (await createUser(t, { name: 'Stranger' })).email);
  for (const [key, isPublic] of [
    ['hidden', false],
    ['granted', false],
    ['expired', false],
    ['open1', true],
    ['open2', true],
    ['open3', true],
  ] as const) {
    ids[key] = (await createAudioFile(t, { title: `Book ${key}`, isPublic })).id;
  }
  await setBook(ids.hidden, { authors: ['Only Hidden'], series: 'Secret Series', genres: ['Secret'] });
  await setBook(ids.expired, { authors: ['Only Hidden', 'Shared Author'], genres: ['Secret'] });
  await setBook(ids.granted, { authors: ['Shared Author'], narrators: ['Only Hidden'], genres: ['Fiction'] });
  await setBook(ids.open1, { authors: ['Shared Author'], series: 'Open Series', seriesPosition: '10' });
  await setBook(ids.open2, { authors: ['Other Writer'], series: 'Open Series', seriesPosition: '2' });
  await setBook(ids.open3, {
    authors: ['Other Writer'],
    series: 'open series',
    seriesPosition: '1.5',
    genres: ['Fiction'],
  });
  await grantFile(t, listener.userId, [ids.granted]);
  await grantFile(t, listener.userId, [ids.expired], { expiresAt: new Date(Date.now() - 60_000) });
});
afterAll(async () => {
  await t?.close();
});

type Counted = { id: string; name: string; bookCount: number };
async function list(query: 'authors' | 'narrators' | 'seriesList', s: Session) {
  const res = await t.gql<Record<string, { total: number; items: Counted[] }>>(
    `{ ${query}(limit: 100) { total items { id name bookCount } } }`,
    {},
    s,
  );
  expect(res.errors).toBeUndefined();
  return res.data![query];
}
const named = (items: Counted[]) => items.map((i) => [i.name, i.bookCount]);

describe('authors, narrators, series and genres of visible books only', () => {
  it('a listener sees the people of public and granted books, counted by those books only', async () => {
    const authors = await list('authors', listener);
    expect(named(authors.items)).toEqual([
      ['Other Writer', 2],
      ['Shared Author', 2],
    ]);
    expect(authors.total).toBe(2);
    // Narrator of a granted book, author only of hidden ones: listed as narrator, not as author.
    expect(named((await list('narrators', listener)).items)).toEqual([['Only Hidden', 1]]);
    expect(named((await list('seriesList', listener)).items)).toEqual([['Open Series', 3]]);
    const genres = await t.gql<{ genres: { name: string; bookCount: number }[] }>(
      '{ genres { name bookCount } }',
      {},
      listener,
    );
    expect(genres.data?.genres).toEqual([{ name: 'Fiction', bookCount: 2 }]);
  });

  it('a user without grants sees only the public books’ records; REST agrees', async () => {
    expect(named((await list('authors', stranger)).items)).toEqual([
      ['Other Writer', 2],
      ['Shared Author', 1],
    ]);
    expect((await list('narrators', stranger)).total).toBe(0);
    const rest = await t.rest<{ data: Counted[]; total: number }>('GET', '/authors?search=shared', undefined, stranger);
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ total: 1, data: [{ name: 'Shared Author', bookCount: 1 }] });
    const series = await t.rest<{ data: Counted[] }>('GET', '/series', undefined, stranger);
    expect(series.body.data.map((s) => s.name)).toEqual(['Open Series']);
    const genres = await t.rest<{ data: { name: string }[] }>('GET', '/genres', undefined, stranger);
    expect(genres.body.data).toEqual([{ name: 'Fiction', bookCount: 1 }]);
  });

  it('an administrator sees every record and every book', async () => {
    expect(named((await list('authors', admin)).items)).toEqual([
      ['Only Hidden', 2],
      ['Other Writer', 2],
      ['Shared Author', 3],
    ]);
    expect(named((await list('seriesList', admin)).items)).toEqual([
      ['Open Series', 3],
      ['Secret Series', 1],
    ]);
  });
});

describe('an author’s and a series’ page', () => {
  async function personId(name: string) {
    return (await list('authors', admin)).items.find((i) => i.name === name)!.id;
  }

  it('shows only the books the caller may see, and is not found when they see none', async () => {
    const hidden = await personId('Only Hidden');
    const page = await t.gql<{
      author: { person: { name: string }; authored: { title: string }[]; narrated: { title: string }[] };
    }>(
      'query($id: ID!) { author(id: $id) { person { name } authored { title } narrated { title } } }',
      { id: hidden },
      listener,
    );
    expect(page.data?.author).toEqual({
      person: { name: 'Only Hidden' },
      authored: [],
      narrated: [{ title: 'Book granted' }],
    });
    const none = await t.gql('query($id: ID!) { author(id: $id) { person { name } } }', { id: hidden }, stranger);
    expect(none.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const rest = await t.rest<{ error: { code: string } }>('GET', `/authors/${hidden}`, undefined, stranger);
    expect(rest.status).toBe(404);
    const asAdmin = await t.rest<{ data: { authored: { title: string; book: { authors: { name: string }[] } }[] } }>(
      'GET',
      `/authors/${hidden}`,
      undefined,
      admin,
    );
    expect(asAdmin.body.data.authored.map((b) => b.title)).toEqual(['Book expired', 'Book hidden']);
    expect(asAdmin.body.data.authored[0].book.authors.map((a) => a.name)).toEqual(['Only Hidden', 'Shared Author']);
  });

  it('a series lists its books by position as a number: 1.5, 2, 10', async () => {
    const openId = (await list('seriesList', stranger)).items[0].id;
    const res = await t.gql<{
      series: { series: { name: string }; books: { position: string; file: { title: string } }[] };
    }>(
      'query($id: ID!) { series(id: $id) { series { name } books { position file { title } } } }',
      { id: openId },
      stranger,
    );
    expect(res.data?.series.books.map((b) => [b.position, b.file.title])).toEqual([
      ['1.5', 'Book open3'],
      ['2', 'Book open2'],
      ['10', 'Book open1'],
    ]);
    const secretId = (await list('seriesList', admin)).items.find((s) => s.name === 'Secret Series')!.id;
    expect((await t.rest('GET', `/series/${secretId}`, undefined, listener)).status).toBe(404);
    const rest = await t.rest<{ data: { books: { position: string }[] } }>(
      'GET',
      `/series/${openId}`,
      undefined,
      listener,
    );
    expect(rest.body.data.books.map((b) => b.position)).toEqual(['1.5', '2', '10']);
  });
});

describe('the library filtered by author, narrator, series and genre', () => {
  it('narrows audioFiles and GET /files to visible books of the record', async () => {
    const authors = await list('authors', admin);
    const shared = authors.items.find((a) => a.name === 'Shared Author')!.id;
    const hidden = authors.items.find((a) => a.name === 'Only Hidden')!.id;
    const seriesId = (await list('seriesList', admin)).items.find((s) => s.name === 'Open Series')!.id;
    const titles = async (args: string, s: Session) => {
      const res = await t.gql<{ audioFiles: { total: number; items: { title: string }[] } }>(
        `{ audioFiles(${args}, sort: TITLE) { total items { title } } }`,
        {},
        s,
      );
      expect(res.errors).toBeUndefined();
      return res.data!.audioFiles.items.map((f) => f.title);
    };
    expect(await titles(`authorId: "${shared}"`, listener)).toEqual(['Book granted', 'Book open1']);
    expect(await titles(`authorId: "${hidden}"`, listener)).toEqual([]);
    expect(await titles(`narratorId: "${hidden}"`, listener)).toEqual(['Book granted']);
    expect(await titles(`seriesId: "${seriesId}"`, stranger)).toEqual(['Book open1', 'Book open2', 'Book open3']);
    expect(await titles('genre: "Fiction"', listener)).toEqual(['Book granted', 'Book open3']);
    expect(await titles(`genre: "Fiction", authorId: "${shared}"`, listener)).toEqual(['Book granted']);
    const rest = await t.rest<{ total: number; data: { title: string }[] }>(
      'GET',
      `/files?authorId=${shared}&sort=title`,
      undefined,
      stranger,
    );
    expect(rest.body).toMatchObject({ total: 1, data: [{ title: 'Book open1' }] });
    const bad = await t.rest('GET', '/files?seriesId=not-an-id', undefined, stranger);
    expect(bad.status).toBe(400);
  });

  it('reads the book fields of a page in a fixed number of statements (no N+1)', async () => {
    const page = (limit: number) =>
      countQueries(() =>
        t.gql(
          `{ audioFiles(limit: ${limit}) { items { title subtitle authors { name } narrators { name } series { series { name } position } genres year } } }`,
          {},
          admin,
        ),
      );
    const one = await page(1);
    const six = await page(6);
    expect(six.queries).toBe(one.queries);
  });
});
