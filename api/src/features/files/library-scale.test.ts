import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeStaleTables } from '../../db/planner-statistics.js';
import { isBackgroundStatement, countQueries as sentDuring, type SentStatement } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addChapter, addCover, createAudioFile, createAudioFiles, grantFile } from '../../test/library-fixtures.js';
import { CoverStorage } from './cover.entity.js';

/**
 * The library and the admin lists cost a fixed number of SQL queries whatever the number of rows:
 * every query the app sends through the pg driver is counted, at 10 files and at 1,000.
 */

let t: TestApp;
let admin: Session;
let listener: Session;
let listenerId: string;
let queries = 0;
const originalQuery = pg.Client.prototype.query;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  const user = await createUser(t);
  listenerId = user.id;
  listener = await signIn(t, user.email);
  // Counts every statement on every connection of this process (the app runs in it), but the
  // background job queue's.
  pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    if (!isBackgroundStatement(this, args[0])) queries += 1;
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
});
afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await t?.close();
});

const LIBRARY = `{ audioFiles(limit: 100) { total items { id title duration isPublic coverImagePath coverUrl coverThumbnailUrl chapters { id label } } } }`;
const ADMIN_FILES = `{ adminFiles(limit: 100) { total items { id title fileAccesses { id status user { id name email } } chapters { id } coverImagePath } } }`;
const ADMIN_USERS = `{ adminUsers(limit: 100) { total items { id name sessionCount hasMultipleSessions } } }`;

/** The cursor forms, a page of 100 past the first row: keyset reads, no OFFSET. */
const connection = (field: string, node: string) =>
  `query ($after: String) { ${field}(first: 100, after: $after) { totalCount edges { node { ${node} } } } }`;
const LIBRARY_CONNECTION = connection(
  'audioFilesConnection',
  'id title coverUrl chapters { id } progress { position }',
);
const ADMIN_FILES_CONNECTION = connection('adminFilesConnection', 'id fileAccesses { id user { id } } chapters { id }');
const ADMIN_USERS_CONNECTION = connection('adminUsersConnection', 'id sessionCount hasMultipleSessions');

/** The cursor of the first row of a connection, to read the page after it; asked once per count. */
const firstRowCursors = new Map<string, string>();
async function secondRowOn(field: string, session: Session): Promise<string> {
  if (!firstRowCursors.has(field)) {
    const res = await t.gql<Record<string, { pageInfo: { endCursor: string } }>>(
      `{ ${field}(first: 1) { pageInfo { endCursor } } }`,
      {},
      session,
    );
    firstRowCursors.set(field, res.data![field].pageInfo.endCursor);
  }
  return firstRowCursors.get(field)!;
}

type Call = () => Promise<unknown>;
const calls: Record<string, Call> = {
  'GraphQL audioFiles': () => t.gql(LIBRARY, {}, listener),
  'REST GET /files': () => t.rest('GET', '/files', undefined, listener),
  'GraphQL adminFiles': () => t.gql(ADMIN_FILES, {}, admin),
  'REST GET /admin/files': () => t.rest('GET', '/admin/files', undefined, admin),
  'GraphQL adminUsers': () => t.gql(ADMIN_USERS, {}, admin),
  'REST GET /admin/users/with-sessions': () => t.rest('GET', '/admin/users/with-sessions', undefined, admin),
  'REST GET /admin/files/stats': () => t.rest('GET', '/admin/files/stats', undefined, admin),
  'GraphQL audioFilesConnection': async () =>
    t.gql(LIBRARY_CONNECTION, { after: await secondRowOn('audioFilesConnection', listener) }, listener),
  'GraphQL adminFilesConnection': async () =>
    t.gql(ADMIN_FILES_CONNECTION, { after: await secondRowOn('adminFilesConnection', admin) }, admin),
  'GraphQL adminUsersConnection': async () =>
    t.gql(ADMIN_USERS_CONNECTION, { after: await secondRowOn('adminUsersConnection', admin) }, admin),
};

async function countQueries(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  firstRowCursors.clear();
  for (const [name, call] of Object.entries(calls)) {
    // A warm-up first: authentication refreshes lastActivity at most once a minute (and cursors are read).
    await call();
    queries = 0;
    await call();
    counts[name] = queries;
  }
  return counts;
}

/** Files granted to the listener (not public, so the grant path of the visibility rule runs), some with covers and chapters. */
async function addGrantedFiles(count: number): Promise<void> {
  const files = await createAudioFiles(t, count);
  await grantFile(
    t,
    listenerId,
    files.map((f) => f.id),
  );
  for (const [i, file] of files.slice(0, 4).entries()) {
    await addCover(t, file.id, i % 2 ? CoverStorage.base64 : CoverStorage.file);
    await addChapter(t, file.id, { label: `c${i}` });
  }
  for (let i = 0; i < Math.min(count, 20); i++) await createUser(t);
}

describe('list cost', () => {
  it('runs the same number of queries at 10 files as at 1,000, and answers the library quickly', async () => {
    await addGrantedFiles(10);
    const atTen = await countQueries();
    await addGrantedFiles(990);
    const atThousand = await countQueries();
    expect(atThousand).toEqual(atTen);
    for (const count of Object.values(atTen)) expect(count).toBeLessThanOrEqual(8);

    const library = await t.gql<{ audioFiles: { total: number; items: unknown[] } }>(LIBRARY, {}, listener);
    expect(library.data?.audioFiles.total).toBe(1000);
    expect(library.data?.audioFiles.items).toHaveLength(100);

    const timings: number[] = [];
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      await t.gql(LIBRARY, {}, listener);
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    const median = timings[Math.floor(timings.length / 2)];
    console.log(
      `library of a user with 1,000 visible files (page of 100, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): median ${median.toFixed(1)} ms, ` +
        `min ${timings[0].toFixed(1)} ms; queries per call: ${JSON.stringify(atThousand)}`,
    );
  });
});

type PlanNode = {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
};

/** Rows of audio_files a plan's scans returned or filtered out, in all their loops. */
function audioFileRowsIn(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'audio_files'
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + audioFileRowsIn(child), 0);
}

/** Rows of audio_files the statements read, each run again under EXPLAIN ANALYZE as the driver got it. */
async function audioFileRowsRead(statements: SentStatement[]): Promise<number> {
  const knex = t.app.orm.em.getKnex();
  const client = (await knex.client.acquireConnection()) as pg.Client;
  try {
    let rows = 0;
    for (const { text, values } of statements.filter((s) => /\bfrom\b[\s\S]*\baudio_files\b/i.test(s.text))) {
      const result = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (analyze, format json) ${text}`,
        values,
      );
      rows += audioFileRowsIn(result.rows[0]['QUERY PLAN'][0].Plan);
    }
    return rows;
  } finally {
    await knex.client.releaseConnection(client);
  }
}

/** `count` private files nobody holds a grant to, in one statement (no audio on disk: never played). */
async function addUngrantedFiles(count: number): Promise<void> {
  await t.app.orm.em.getConnection().execute(
    `insert into audio_files (id, title, description, filename, storage_path, size, duration, mime_type, is_public, created_at, updated_at)
     select gen_random_uuid(), 'Other ' || i, null, 'other.mp3', 'audio/other.mp3', 1000, 60 + i, 'audio/mpeg', false,
       now() - i * interval '1 second', now()
     from generate_series(1, ?) i`,
    [count],
  );
}

describe('library reads', () => {
  it("read the caller's grants and the public files, not every file", async () => {
    const user = await createUser(t);
    const reader = await signIn(t, user.email);
    const files = await createAudioFiles(t, 10);
    await grantFile(
      t,
      user.id,
      files.slice(0, 7).map((f) => f.id),
    );
    await grantFile(t, user.id, [files[7].id], { expiresAt: new Date(Date.now() - 60_000) });
    await grantFile(t, user.id, [files[8].id], { canView: false });
    const open = await createAudioFile(t, { isPublic: true });
    // A public file the reader also holds a grant to is listed once.
    await grantFile(t, user.id, [open.id]);
    await addUngrantedFiles(5000);
    // What the running app's statistics keeper (or PostgreSQL's autovacuum) does within a minute.
    await analyzeStaleTables(t.app.orm.em.fork());

    const visible = [...files.slice(0, 7).map((f) => f.id), open.id].sort();
    const library = (variables: Record<string, unknown>) =>
      t.gql<{ audioFiles: { total: number; items: { id: string }[] } }>(
        `query ($sort: LibrarySort, $search: String) {
          audioFiles(sort: $sort, search: $search, limit: 24) { total items { id } } }`,
        variables,
        reader,
      );
    for (const variables of [
      {},
      { sort: 'TITLE', search: 'Track' },
      { sort: 'DURATION' },
      { sort: 'RECENTLY_PLAYED' },
    ]) {
      await library(variables);
      const { result, sent } = await sentDuring(() => library(variables));
      expect(result.data?.audioFiles.total).toBe(8);
      expect(result.data?.audioFiles.items.map((f) => f.id).sort()).toEqual(visible);
      // The page and its count read the 9 files of the caller's grants and the public one, not 5,000 others.
      expect(await audioFileRowsRead(sent), JSON.stringify(variables)).toBeLessThanOrEqual(2 * 10);
    }
  });
});
