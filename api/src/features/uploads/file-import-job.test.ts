import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { importedFile } from '../../test/jobs.js';
import { makeTaggedBook, type BookTags } from '../../test/tagged-books.js';
import { audioPart, uploadForm } from '../../test/upload-client.js';
import { Chapter } from '../chapters/chapter.entity.js';
import { Cover, CoverStorage } from '../files/cover.entity.js';
import { importFileMetadata, tagsWhereEmpty } from './file-import-job.js';
import { noBookValues } from '../catalog/book-catalog.js';

const tags: BookTags = {
  title: 'Import Road',
  author: 'Ada Importer',
  narrator: 'Nora Importer',
  series: 'Imports',
  seriesPart: '3',
  genre: 'Fiction',
  year: 2020,
};

let t: TestApp;
let admin: Session;
let mp3: string;
beforeAll(async () => {
  mp3 = await makeTaggedBook('mp3', tags);
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
  if (mp3) rmSync(path.dirname(mp3), { recursive: true, force: true });
});

const BOOK = `title authors { name } narrators { name } series { series { name } position } genres year
  coverUrl chapters { label }`;

async function book(id: string) {
  const res = await t.gql<{ audioFile: Record<string, unknown> }>(
    `query($id: ID!) { audioFile(id: $id) { ${BOOK} } }`,
    { id },
    admin,
  );
  expect(res.errors).toBeUndefined();
  return res.data!.audioFile;
}

async function upload(fields: Record<string, string> = {}): Promise<string> {
  const res = await t.rest<{ data: { id: string } }>(
    'POST',
    '/files',
    uploadForm({ coverStorageType: 'file', ...fields }, { audio: audioPart(mp3) }),
    admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

/** The import run again, by hand, as a retry would. */
const importAgain = (fileId: string, nameTitle: string | null) =>
  importFileMetadata(t.app.orm.em.fork(), t.app.deps, { fileId, nameTitle, coverStorageType: CoverStorage.file });

describe('the file-import job', () => {
  it('fills in what the tags say, and run again (a retry) creates nothing twice', async () => {
    const id = await upload();
    await importedFile(t, id);
    const first = await book(id);
    expect(first).toMatchObject({
      title: 'Import Road',
      authors: [{ name: 'Ada Importer' }],
      narrators: [{ name: 'Nora Importer' }],
      series: { series: { name: 'Imports' }, position: '3' },
      genres: ['Fiction'],
      year: 2020,
      chapters: [{ label: 'Opening' }, { label: 'The Road' }],
    });
    const em = t.app.orm.em.fork();
    const cover = await em.findOneOrFail(Cover, { file: id });

    await importAgain(id, path.basename(mp3, '.mp3'));
    expect(await book(id)).toEqual(first);
    const fresh = t.app.orm.em.fork();
    expect(await fresh.count(Chapter, { file: id })).toBe(2);
    expect((await fresh.findOneOrFail(Cover, { file: id })).updatedAt.getTime()).toBe(cover.updatedAt.getTime());
  });

  it('keeps what an administrator set before it ran: title, book details, chapters, cover', async () => {
    const id = await upload();
    await importedFile(t, id);
    const renamed = await t.gql(
      `mutation($id: ID!) { updateFile(id: $id, input: { title: "Edited Title" }) { id } }`,
      { id },
      admin,
    );
    expect(renamed.errors).toBeUndefined();
    const edit = await t.gql(
      `mutation($id: ID!) { updateBook(fileId: $id, input: { authors: ["Edited Author"], series: "Edited Series", seriesPosition: "9" }) { id } }`,
      { id },
      admin,
    );
    expect(edit.errors).toBeUndefined();
    const before = await book(id);

    await importAgain(id, path.basename(mp3, '.mp3'));
    expect(await book(id)).toEqual(before);
    expect(before).toMatchObject({
      title: 'Edited Title',
      authors: [{ name: 'Edited Author' }],
      series: { series: { name: 'Edited Series' }, position: '9' },
    });
  });

  it('ends quietly for a file deleted before it ran', async () => {
    await expect(importAgain(randomUUID(), null)).resolves.toBeUndefined();
  });

  it('fills only the empty fields: what was typed or set wins, a position stays with its series', () => {
    const typed = { ...noBookValues, authors: ['Typed'], series: 'Typed Series', year: 1999 };
    const read = {
      ...noBookValues,
      authors: ['Tagged'],
      narrators: ['Tag Voice'],
      series: 'Tag Series',
      seriesPosition: '2',
      year: 2020,
      genres: ['Fiction'],
    };
    expect(tagsWhereEmpty(typed, read)).toEqual({
      ...noBookValues,
      authors: ['Typed'],
      narrators: ['Tag Voice'],
      series: 'Typed Series',
      seriesPosition: null,
      year: 1999,
      genres: ['Fiction'],
    });
    expect(tagsWhereEmpty(noBookValues, read)).toEqual(read);
    expect(tagsWhereEmpty(read, noBookValues)).toEqual(read);
  });
});
