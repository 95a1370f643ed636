import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asKey, newKey } from '../../test/api-keys.js';
import { createAdminSession, createUser, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFiles, grantFile } from '../../test/library-fixtures.js';

/**
 * An API key reads each cursor connection with exactly the rights it has on the offset list beside
 * it: the same scope, the same role checks, the same visible rows.
 */

let t: TestApp;
let admin: Session;
let readerId: string;
let fileId: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  readerId = (await createUser(t, { name: 'Reader' })).id;
  const files = await createAudioFiles(t, 4, { isPublic: false });
  fileId = files[0].id;
  await grantFile(t, readerId, [files[0].id, files[2].id]);
});
afterAll(async () => {
  await t?.close();
});

interface Pair {
  scope: string;
  offset: string;
  connection: string;
  /** The ids the offset form lists, from its data. */
  ids: (data: never) => { id: string }[];
}

const pairs = (): Record<string, Pair> => ({
  library: {
    scope: 'LIBRARY_READ',
    offset: '{ audioFiles(limit: 100) { items { id } } }',
    connection: '{ audioFilesConnection(first: 100) { edges { node { id } } } }',
    ids: (d: { audioFiles: { items: { id: string }[] } }) => d.audioFiles.items,
  },
  adminFiles: {
    scope: 'LIBRARY_READ',
    offset: '{ adminFiles(limit: 100) { items { id } } }',
    connection: '{ adminFilesConnection(first: 100) { edges { node { id } } } }',
    ids: (d: { adminFiles: { items: { id: string }[] } }) => d.adminFiles.items,
  },
  users: {
    scope: 'USERS_READ',
    offset: '{ adminUsers(limit: 100) { items { id } } }',
    connection: '{ adminUsersConnection(first: 100) { edges { node { id } } } }',
    ids: (d: { adminUsers: { items: { id: string }[] } }) => d.adminUsers.items,
  },
  sessions: {
    scope: 'USERS_READ',
    offset: `{ userSessions(userId: "${admin.userId}") { id } }`,
    connection: `{ userSessionsConnection(userId: "${admin.userId}") { edges { node { id } } } }`,
    ids: (d: { userSessions: { id: string }[] }) => d.userSessions,
  },
  grants: {
    scope: 'ACCESS_WRITE',
    offset: `{ fileAccessList(fileId: "${fileId}") { grants { id } } }`,
    connection: `{ fileAccessConnection(fileId: "${fileId}") { edges { node { id } } } }`,
    ids: (d: { fileAccessList: { grants: { id: string }[] } }) => d.fileAccessList.grants,
  },
  audit: {
    scope: 'AUDIT_READ',
    offset: '{ auditLog(limit: 100) { items { id } } }',
    connection: '{ auditLogConnection(first: 100) { edges { node { id } } } }',
    ids: (d: { auditLog: { items: { id: string }[] } }) => d.auditLog.items,
  },
});

const connectionIds = (data: Record<string, { edges: { node: { id: string } }[] }>) =>
  Object.values(data)[0].edges.map((e) => e.node.id);

async function answers(query: string, secret: string) {
  const res = await t.gql<Record<string, never>>(query, {}, asKey(secret));
  return { code: res.errors?.[0]?.extensions?.code ?? 'ok', message: res.errors?.[0]?.message, data: res.data };
}

describe('API keys on cursor connections', () => {
  it('read each connection with its offset list’s scope, and see the same rows', async () => {
    for (const [name, pair] of Object.entries(pairs())) {
      const key = await newKey(t, admin, admin.userId, [pair.scope]);
      const offset = await answers(pair.offset, key.secret);
      const connection = await answers(pair.connection, key.secret);
      expect([offset.code, connection.code], name).toEqual(['ok', 'ok']);
      const expected = pair.ids(offset.data as never).map((item) => item.id);
      expect(expected.length, name).toBeGreaterThan(0);
      expect(connectionIds(connection.data as never), name).toEqual(expected);
    }
  });

  it('refuse a connection to a key without that scope, as its offset list', async () => {
    for (const [name, pair] of Object.entries(pairs())) {
      const other = pair.scope === 'AUDIT_READ' ? 'USERS_READ' : 'AUDIT_READ';
      const key = await newKey(t, admin, admin.userId, [other]);
      const offset = await answers(pair.offset, key.secret);
      const connection = await answers(pair.connection, key.secret);
      expect(connection, name).toMatchObject({ code: 'FORBIDDEN', message: offset.message });
      expect(connection.message, name).toContain(pair.scope.toLowerCase().replace('_', ':'));
    }
    const key = await newKey(t, admin, admin.userId, ['LIBRARY_READ', 'USERS_READ']);
    for (const query of ['{ myDevices { id } }', '{ myDevicesConnection { totalCount } }']) {
      expect((await answers(query, key.secret)).code, query).toBe('FORBIDDEN');
    }
  });

  it("keep a user's key to the files that user may see, and off the administrators' lists", async () => {
    const key = await newKey(t, admin, readerId, ['LIBRARY_READ']);
    const { library, adminFiles } = pairs();
    const offset = await answers(library.offset, key.secret);
    const connection = await answers(library.connection, key.secret);
    expect(connectionIds(connection.data as never)).toEqual(library.ids(offset.data as never).map((f) => f.id));
    expect(connectionIds(connection.data as never)).toHaveLength(2);
    expect((await answers(adminFiles.connection, key.secret)).code).toBe('FORBIDDEN');
    expect((await answers(adminFiles.offset, key.secret)).code).toBe('FORBIDDEN');
  });
});
