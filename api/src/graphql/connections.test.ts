import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceSession } from '../features/auth/device-session.entity.js';
import { countQueries } from '../test/count-queries.js';
import { createAdminSession, createUser, signIn, type Session } from '../test/factories.js';
import { startTestApp, type CallOptions, type TestApp } from '../test/harness.js';
import { createAudioFiles, grantFile } from '../test/library-fixtures.js';

/**
 * The cursor connections page the same rows, in the same order, as the offset lists they sit beside:
 * keyset pages (no OFFSET) that stay put when rows come and go, ties broken by id, at a fixed cost.
 */

let t: TestApp;
let admin: Session;
let adminId: string;
let fileIds: string[];
const listenerIds: string[] = [];

/** Sets a column of some rows to one value, by SQL: microseconds the API's own writes would round away. */
async function setColumn(table: string, column: string, value: unknown, ids: string[]): Promise<void> {
  await t.app.orm.em
    .fork()
    .getConnection()
    .execute(`update ${table} set ${column} = ? where id in (${ids.map(() => '?').join(', ')})`, [value, ...ids]);
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  adminId = admin.userId;
  const files = await createAudioFiles(t, 9, { isPublic: false });
  fileIds = files.map((f) => f.id);
  // Ties everywhere: four files added in the same microsecond, titles equal but for case, equal durations.
  await setColumn('audio_files', 'created_at', '2024-03-01 10:00:00.123456+00', fileIds.slice(0, 4));
  await setColumn('audio_files', 'created_at', '2024-03-01 10:00:00.123457+00', fileIds.slice(4, 5));
  await setColumn('audio_files', 'title', 'Same title', fileIds.slice(0, 3));
  await setColumn('audio_files', 'title', 'same title', fileIds.slice(3, 5));
  await setColumn('audio_files', 'duration', 61.5, fileIds.slice(2, 7));
  // Two files played by the administrator, the others never.
  const em = t.app.orm.em.fork();
  for (const [i, fileId] of fileIds.slice(5, 7).entries()) {
    await em
      .getConnection()
      .execute(
        `insert into listening_progress (user_id, file_id, position, finished, updated_at) values (?, ?, 1, false, ?)`,
        [adminId, fileId, `2024-04-01 00:00:0${i}.000001+00`],
      );
  }
  for (let i = 0; i < 5; i++) listenerIds.push((await createUser(t, { name: `Listener ${i}` })).id);
});
afterAll(async () => {
  await t?.close();
});

interface Page {
  totalCount: number;
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

async function page(field: string, args: string, first: number, after: string | null, as: CallOptions = admin) {
  const res = await t.gql<Record<string, Page>>(
    `query ($first: Int!, $after: String) { ${field}(${args ? `${args}, ` : ''}first: $first, after: $after) {
       totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
    { first, after },
    as,
  );
  expect(res.errors, field).toBeUndefined();
  return res.data![field];
}

/** Every id of a connection, page by page, checking each page's info on the way. */
async function walk(field: string, args = '', first = 2, as: CallOptions = admin): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (;;) {
    const p: Page = await page(field, args, first, after, as);
    ids.push(...p.edges.map((e) => e.node.id));
    expect(p.pageInfo.hasPreviousPage).toBe(after !== null);
    expect(p.pageInfo.endCursor).toBe(p.edges.at(-1)?.cursor ?? null);
    expect(p.edges.length).toBeLessThanOrEqual(first);
    if (!p.pageInfo.hasNextPage) {
      expect(ids).toHaveLength(p.totalCount);
      return ids;
    }
    expect(p.edges).toHaveLength(first);
    after = p.pageInfo.endCursor;
  }
}

async function offsetIds(query: string, pick: (data: never) => { id: string }[], as: CallOptions = admin) {
  const res = await t.gql(query, {}, as);
  expect(res.errors, query).toBeUndefined();
  return pick(res.data as never).map((item) => item.id);
}

describe('cursor connections', () => {
  it('page the library in each order exactly as the offset list, ties broken by id', async () => {
    for (const sort of ['RECENTLY_ADDED', 'TITLE', 'DURATION', 'RECENTLY_PLAYED']) {
      const expected = await offsetIds(
        `{ audioFiles(limit: 100, sort: ${sort}) { items { id } } }`,
        (d: { audioFiles: { items: { id: string }[] } }) => d.audioFiles.items,
      );
      expect(new Set(expected).size).toBe(expected.length);
      for (const first of [1, 2, 4])
        expect(await walk('audioFilesConnection', `sort: ${sort}`, first), sort).toEqual(expected);
    }
  });

  it('start a page right after the last row seen, even when rows were added or removed meanwhile', async () => {
    const before = await walk('audioFilesConnection', '', 100);
    const first = await page('audioFilesConnection', '', 3, null);
    const [newer] = await createAudioFiles(t, 1, { title: 'Added meanwhile', createdAt: new Date() });
    await t.gql(`mutation { deleteFile(id: "${first.edges[0].node.id}") }`, {}, admin);
    const next = await page('audioFilesConnection', '', 3, first.pageInfo.endCursor);
    expect(next.edges.map((e) => e.node.id)).toEqual(before.slice(3, 6));
    expect(next.totalCount).toBe(before.length);
    expect(next.edges.map((e) => e.node.id)).not.toContain(newer.id);
  });

  it('page every other list as its offset form does', async () => {
    const grantee = await createUser(t, { name: 'Grantee' });
    await setColumn('users', 'created_at', '2024-02-02 02:02:02.222222+00', [grantee.id, ...listenerIds.slice(0, 2)]);
    const grants = await Promise.all(listenerIds.map((id) => grantFile(t, id, [fileIds[0]])));
    const grantIds = grants.map(([grant]) => grant.id);
    await setColumn('file_access', 'granted_at', '2024-02-03 00:00:00.000001+00', grantIds.slice(0, 3));
    // Device sessions of one user, two of them used in the same microsecond.
    const em = t.app.orm.em.fork();
    const sessions = ['a', 'b', 'c', 'd'].map((name) =>
      em.create(DeviceSession, { user: grantee.id, deviceId: `device-${name}`, deviceName: name }),
    );
    await em.persist(sessions).flush();
    await setColumn(
      'device_sessions',
      'last_activity',
      '2024-05-05 05:05:05.555555+00',
      sessions.slice(0, 2).map((s) => s.id),
    );

    const lists: [string, string, string, (d: never) => { id: string }[]][] = [
      [
        'adminFilesConnection',
        'status: PRIVATE',
        '{ adminFiles(limit: 100, status: PRIVATE) { items { id } } }',
        (d: { adminFiles: { items: { id: string }[] } }) => d.adminFiles.items,
      ],
      [
        'adminUsersConnection',
        'search: "e"',
        '{ adminUsers(limit: 100, search: "e") { items { id } } }',
        (d: { adminUsers: { items: { id: string }[] } }) => d.adminUsers.items,
      ],
      [
        'auditLogConnection',
        '',
        '{ auditLog(limit: 100) { items { id } } }',
        (d: { auditLog: { items: { id: string }[] } }) => d.auditLog.items,
      ],
      [
        'fileAccessConnection',
        `fileId: "${fileIds[0]}"`,
        `{ fileAccessList(fileId: "${fileIds[0]}") { grants { id } } }`,
        (d: { fileAccessList: { grants: { id: string }[] } }) => d.fileAccessList.grants,
      ],
      [
        'userSessionsConnection',
        `userId: "${grantee.id}"`,
        `{ userSessions(userId: "${grantee.id}") { id } }`,
        (d: { userSessions: { id: string }[] }) => d.userSessions,
      ],
      ['myDevicesConnection', '', '{ myDevices { id } }', (d: { myDevices: { id: string }[] }) => d.myDevices],
    ];
    for (const [field, args, offsetQuery, pick] of lists) {
      const expected = await offsetIds(offsetQuery, pick);
      expect(expected.length, field).toBeGreaterThan(0);
      expect(await walk(field, args, 1), field).toEqual(expected);
      expect(await walk(field, args, 3), field).toEqual(expected);
    }
  });

  it('bound first and refuse a cursor that is not of the list, as BAD_USER_INPUT', async () => {
    for (const first of [0, 101, -1]) {
      const res = await t.gql(`{ audioFilesConnection(first: ${first}) { totalCount } }`, {}, admin);
      expect(res.errors?.[0]).toMatchObject({
        message: 'first must be between 1 and 100',
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    const byTitle = (await page('audioFilesConnection', 'sort: TITLE', 1, null)).pageInfo.endCursor!;
    const ofUsers = (await page('adminUsersConnection', '', 1, null)).pageInfo.endCursor!;
    const forged = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
    const refused = [
      ['audioFilesConnection(sort: DURATION', byTitle],
      ['audioFilesConnection(sort: RECENTLY_ADDED', ofUsers],
      ['adminUsersConnection(search: null', byTitle],
      ['audioFilesConnection(sort: RECENTLY_ADDED', 'not a cursor'],
      ['audioFilesConnection(sort: RECENTLY_ADDED', forged(['files', '2024-13-45', fileIds[0]])],
      ['audioFilesConnection(sort: RECENTLY_ADDED', forged(['files', '1', 'not-a-uuid'])],
      ['audioFilesConnection(sort: RECENTLY_ADDED', forged(['files', null, fileIds[0]])],
      ['audioFilesConnection(sort: DURATION', forged(['files:DURATION', "1'; drop table users; --", fileIds[0]])],
      ['auditLogConnection(first: 1', forged(['audit', '1', '1e99999'])],
    ];
    for (const [call, after] of refused) {
      const res = await t.gql(`query ($after: String) { ${call}, after: $after) { totalCount } }`, { after }, admin);
      expect(res.errors?.[0], `${call} ${after}`).toMatchObject({
        message: 'after is not a cursor of this list',
        extensions: { code: 'BAD_USER_INPUT', field: 'after' },
      });
    }
  });

  it('cost the same number of statements for a page of 2 as for a page of 50', async () => {
    // More device sessions of the administrator than the policy would let stay (rows straight in the table).
    const em = t.app.orm.em.fork();
    const devices = ['x', 'y', 'z'].map((name) =>
      em.create(DeviceSession, { user: adminId, deviceId: name, deviceName: name }),
    );
    await em.persist(devices).flush();
    const calls: Record<string, string> = {
      audioFilesConnection: 'sort: RECENTLY_PLAYED',
      adminFilesConnection: '',
      adminUsersConnection: '',
      auditLogConnection: '',
      fileAccessConnection: `fileId: "${fileIds[0]}"`,
      myDevicesConnection: '',
    };
    const nodes: Record<string, string> = {
      audioFilesConnection: 'id title coverUrl chapters { id } progress { position }',
      adminFilesConnection: 'id fileAccesses { id user { id } } chapters { id }',
      adminUsersConnection: 'id sessionCount hasMultipleSessions',
      auditLogConnection: 'id action details',
      fileAccessConnection: 'id status user { id email }',
      myDevicesConnection: 'id isCurrent',
    };
    for (const [field, args] of Object.entries(calls)) {
      const cost = async (first: number) => {
        const query = `{ ${field}(${args ? `${args}, ` : ''}first: ${first}) { totalCount edges { cursor node { ${nodes[field]} } } } }`;
        await t.gql(query, {}, admin);
        const { result, queries } = await countQueries(() => t.gql<Record<string, Page>>(query, {}, admin));
        expect(result.errors, field).toBeUndefined();
        return { queries, rows: result.data![field].edges.length };
      };
      const [small, large] = [await cost(2), await cost(50)];
      expect(large.rows, field).toBeGreaterThan(small.rows);
      expect(large.queries, field).toBe(small.queries);
    }
  });
});

describe('the grant form’s candidates', () => {
  it('are the users without a live grant of the file, searched by name or email, limited', async () => {
    const [file] = await createAudioFiles(t, 1);
    const holder = await createUser(t, { name: 'Candidate Holder' });
    const lapsed = await createUser(t, { name: 'Candidate Lapsed' });
    const free = await createUser(t, { name: 'Candidate Free' });
    await grantFile(t, holder.id, [file.id]);
    await grantFile(t, lapsed.id, [file.id], { expiresAt: new Date(Date.now() - 1000) });
    type Candidates = { grantCandidates: { total: number; items: { id: string; name: string }[] } };
    const ask = (args: string) =>
      t.gql<Candidates>(`{ grantCandidates(fileId: "${file.id}"${args}) { total items { id name } } }`, {}, admin);
    const searched = await ask(', search: "candidate"');
    expect(searched.data!.grantCandidates.items.map((u) => u.name)).toEqual(['Candidate Free', 'Candidate Lapsed']);
    expect((await ask(`, search: "${free.email.toUpperCase()}"`)).data!.grantCandidates.items).toEqual([
      { id: free.id, name: 'Candidate Free' },
    ]);
    const all = await ask('');
    expect(all.data!.grantCandidates.items.map((u) => u.id)).not.toContain(holder.id);
    const limited = await ask(', limit: 2');
    expect(limited.data!.grantCandidates.items).toHaveLength(2);
    expect(limited.data!.grantCandidates.total).toBe(all.data!.grantCandidates.total);
    expect((await ask(', limit: 101')).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const unknown = await t.gql(
      '{ grantCandidates(fileId: "00000000-0000-4000-8000-000000000000") { total } }',
      {},
      admin,
    );
    expect(unknown.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await ask('')).data!.grantCandidates.total).toBe(all.data!.grantCandidates.total);
    const person = await signIn(t, free.email);
    expect(
      (await t.gql(`{ grantCandidates(fileId: "${file.id}") { total } }`, {}, person)).errors?.[0].extensions?.code,
    ).toBe('FORBIDDEN');
  });
});
