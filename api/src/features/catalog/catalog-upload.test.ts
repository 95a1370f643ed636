import { rmSync } from 'node:fs';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { importedFile } from '../../test/jobs.js';
import { makeTaggedBook, type BookTags } from '../../test/tagged-books.js';
import { audioPart, chunkedClient, uploadForm } from '../../test/upload-client.js';
import { readEmbeddedMetadata } from '../uploads/embedded-metadata.js';

const tags: BookTags = {
  title: 'The Long Road',
  author: 'Ada Writer',
  narrator: 'Nora Reader',
  series: 'The Roads',
  seriesPart: '2',
  genre: 'Fiction',
  year: 2021,
};

let t: TestApp;
let admin: Session;
let mp3: string;
let m4b: string;
beforeAll(async () => {
  [mp3, m4b] = await Promise.all([makeTaggedBook('mp3', tags), makeTaggedBook('m4b', tags)]);
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
  for (const file of [mp3, m4b]) if (file) rmSync(path.dirname(file), { recursive: true, force: true });
});

const BOOK_FIELDS = `id title authors { id name } narrators { name } series { series { id name } position }
  genres year coverUrl chapters { label startTime }`;

interface GqlBook {
  id: string;
  title: string;
  authors: { id: string; name: string }[];
  narrators: { name: string }[];
  series: { series: { id: string; name: string }; position: string | null } | null;
  genres: string[];
  year: number | null;
  coverUrl: string | null;
  chapters: { label: string; startTime: number }[];
}

async function bookOverGraphql(id: string): Promise<GqlBook> {
  const res = await t.gql<{ audioFile: GqlBook }>(
    `query($id: ID!) { audioFile(id: $id) { ${BOOK_FIELDS} } }`,
    { id },
    admin,
  );
  expect(res.errors).toBeUndefined();
  return res.data!.audioFile;
}

interface RestBook {
  authors: { id: string; name: string }[];
  narrators: { name: string }[];
  series: { id: string; name: string; position: string | null } | null;
  genres: string[];
  year: number | null;
}

async function bookOverRest(id: string): Promise<RestBook> {
  const res = await t.rest<{ data: RestBook }>('GET', `/files/${id}/book`, undefined, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

function expectFromTags(book: GqlBook) {
  expect(book).toMatchObject({
    title: 'The Long Road',
    authors: [{ name: 'Ada Writer' }],
    narrators: [{ name: 'Nora Reader' }],
    series: { series: { name: 'The Roads' }, position: '2' },
    genres: ['Fiction'],
    year: 2021,
  });
  expect(book.coverUrl).toBeTruthy();
  // Chapters from the file are queued for finalizing (a job each); their labels are there at once.
  expect(book.chapters.map((c) => c.label)).toEqual(['Opening', 'The Road']);
}

describe('book details read from the file', () => {
  it.each(['mp3', 'm4b'] as const)('reads author, narrator, series and position of an %s', async (kind) => {
    const read = await readEmbeddedMetadata(kind === 'mp3' ? mp3 : m4b);
    expect(read).toMatchObject({
      title: 'The Long Road',
      authors: ['Ada Writer'],
      narrators: ['Nora Reader'],
      series: 'The Roads',
      seriesPosition: '2',
      genres: ['Fiction'],
      year: 2021,
      cover: { mimeType: 'image/png' },
    });
  });

  it('POST /files with an .m4b: GraphQL and REST show what its tags say', async () => {
    const res = await t.rest<{ data: { id: string } }>(
      'POST',
      '/files',
      uploadForm({ title: '' }, { audio: audioPart(m4b, 'audio/mp4') }),
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await importedFile(t, res.body.data.id);
    const book = await bookOverGraphql(res.body.data.id);
    expectFromTags(book);
    expect(await bookOverRest(book.id)).toMatchObject({
      authors: [{ id: book.authors[0].id, name: 'Ada Writer' }],
      narrators: [{ name: 'Nora Reader' }],
      series: { id: book.series!.series.id, name: 'The Roads', position: '2' },
      genres: ['Fiction'],
      year: 2021,
    });
  });

  it('chunked .mp3 finalized over GraphQL: typed values win, the rest come from the tags', async () => {
    const bytes = readFileSync(mp3);
    const c = chunkedClient(t, admin);
    const id = (await c.init(bytes, 'book.mp3', { mimeType: 'audio/mpeg' })).body.uploadId;
    expect((await c.chunk(id, bytes, 'book.mp3', 0)).status).toBe(200);
    const res = await t.gql<{ finalizeUpload: GqlBook }>(
      `mutation($id: ID!) { finalizeUpload(id: $id, input: { title: "", authors: ["Typed Author", "Ada Writer"], genres: [] }) { ${BOOK_FIELDS} } }`,
      { id },
      admin,
    );
    expect(res.errors).toBeUndefined();
    await importedFile(t, res.data!.finalizeUpload.id);
    const book = await bookOverGraphql(res.data!.finalizeUpload.id);
    expect(book.authors.map((a) => a.name)).toEqual(['Typed Author', 'Ada Writer']);
    expectFromTags({ ...book, authors: [book.authors[1]] });
    // The same name on two books is one record.
    const all = await t.gql<{ authors: { total: number; items: { name: string; bookCount: number }[] } }>(
      '{ authors { total items { name bookCount } } }',
      {},
      admin,
    );
    expect(all.data?.authors.items).toEqual([
      { name: 'Ada Writer', bookCount: 2 },
      { name: 'Typed Author', bookCount: 1 },
    ]);
  });

  it('chunked .mp3 finalized over REST with a typed series and narrator', async () => {
    const bytes = readFileSync(mp3);
    const c = chunkedClient(t, admin);
    const id = (await c.init(bytes, 'book.mp3', { mimeType: 'audio/mpeg' })).body.uploadId;
    expect((await c.chunk(id, bytes, 'book.mp3', 0)).status).toBe(200);
    const done = await c.finalize(id, { narrators: 'Sam Voice; Nora Reader', series: 'Other Roads' });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    await importedFile(t, done.body.data.id as string);
    expect(await bookOverRest(done.body.data.id as string)).toMatchObject({
      authors: [{ name: 'Ada Writer' }],
      narrators: [{ name: 'Sam Voice' }, { name: 'Nora Reader' }],
      // A typed series takes no position from the tags of another.
      series: { name: 'Other Roads', position: null },
    });
  });
});

describe('editing a book', () => {
  it('updateBook replaces what it is given and keeps the rest; REST PUT the same', async () => {
    const res = await t.rest<{ data: { id: string } }>(
      'POST',
      '/files',
      uploadForm({}, { audio: audioPart(mp3) }),
      admin,
    );
    const id = res.body.data.id;
    await importedFile(t, id);
    const edit = await t.gql<{ updateBook: GqlBook }>(
      `mutation($id: ID!) { updateBook(fileId: $id, input: { narrators: [], series: "The Roads", seriesPosition: "2.5", year: 1999 }) { ${BOOK_FIELDS} } }`,
      { id },
      admin,
    );
    expect(edit.errors).toBeUndefined();
    expect(edit.data?.updateBook).toMatchObject({
      authors: [{ name: 'Ada Writer' }],
      narrators: [],
      series: { series: { name: 'The Roads' }, position: '2.5' },
      year: 1999,
      genres: ['Fiction'],
    });
    const put = await t.rest<{ data: RestBook }>(
      'PUT',
      `/admin/files/${id}/book`,
      { genres: ['Mystery', 'Fiction'], year: 'soon' },
      admin,
    );
    expect(put.status).toBe(400);
    expect(JSON.stringify(put.body)).toContain('year must be a whole number');
    const ok = await t.rest<{ data: RestBook }>(
      'PUT',
      `/admin/files/${id}/book`,
      { genres: ['Mystery', 'Fiction'] },
      admin,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ genres: ['Mystery', 'Fiction'], year: 1999, narrators: [] });
  });
});
