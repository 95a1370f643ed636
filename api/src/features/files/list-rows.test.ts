import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addCover, createAudioFile, grantFile } from '../../test/library-fixtures.js';
import { User, UserRole } from '../users/user.entity.js';
import { CoverStorage } from './cover.entity.js';

/**
 * Lists read plain rows (findFilePage, listUsers) where a single file or user is an entity: every
 * row must carry each field of its type with the value the single read gives, over GraphQL and REST.
 */

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
});

/** The fields of a GraphQL object type that are scalars or enums (no arguments), from the schema. */
async function scalarFields(typeName: string): Promise<string> {
  type TypeRef = { kind: string; ofType: TypeRef | null };
  const res = await t.gql<{ __type: { fields: { name: string; args: unknown[]; type: TypeRef }[] } }>(
    'query ($name: String!) { __type(name: $name) { fields { name args { name } type { kind ofType { kind ofType { kind } } } } } }',
    { name: typeName },
    admin,
  );
  const named = (type: TypeRef): string => (type.ofType ? named(type.ofType) : type.kind);
  const fields = res.data!.__type.fields.filter(
    (f) => f.args.length === 0 && ['SCALAR', 'ENUM'].includes(named(f.type)),
  );
  return fields.map((f) => f.name).join(' ');
}

async function gqlData<T>(query: string, variables: Record<string, unknown>, session: Session): Promise<T> {
  const res = await t.gql<T>(query, variables, session);
  expect(res.errors).toBeUndefined();
  return res.data!;
}

async function restData<T>(route: string, session: Session): Promise<T> {
  const res = await t.rest<{ data: T }>('GET', route, undefined, session);
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('list rows', () => {
  it('give every field of a file as reading the file itself does, in the library and the admin list', async () => {
    const tag = randomUUID();
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    const granted = await createAudioFile(t, {
      title: `${tag} granted`,
      description: null,
      filename: 'Ünïcode name.m4a',
      size: 5_000_000_123,
      duration: 61.25,
    });
    const open = await createAudioFile(t, { title: `${tag} public`, description: 'Side A', isPublic: true });
    await grantFile(t, user.id, [granted.id]);
    await addCover(t, granted.id, CoverStorage.base64);
    await addCover(t, open.id, CoverStorage.file);

    const fields = await scalarFields('AudioFile');
    expect(fields.split(' ')).toEqual(
      expect.arrayContaining(['size', 'createdAt', 'coverImagePath', 'coverImageBase64']),
    );
    const one = (query: string) => `query ($id: ID!) { ${query}(id: $id) { ${fields} } }`;
    type FileFields = Record<string, unknown> & { id: string };
    // By design the one difference: an inline cover's bytes come with a single file, never in a list.
    const asListed = (single: FileFields) => ({ ...single, coverImageBase64: null });

    const library = await gqlData<{ audioFiles: { total: number; items: FileFields[] } }>(
      `query ($s: String) { audioFiles(search: $s, limit: 10) { total items { ${fields} } } }`,
      { s: tag },
      session,
    );
    expect(library.audioFiles.total).toBe(2);
    expect(library.audioFiles.items.map((f) => f.id)).toEqual([open.id, granted.id]);
    for (const item of library.audioFiles.items) {
      const single = (await gqlData<{ audioFile: FileFields }>(one('audioFile'), { id: item.id }, session)).audioFile;
      expect(item).toEqual(asListed(single));
      expect(single.coverImageBase64 !== null).toBe(item.id === granted.id);
    }
    const adminList = await gqlData<{ adminFiles: { items: FileFields[] } }>(
      `query ($s: String) { adminFiles(search: $s, limit: 10) { items { ${fields} } } }`,
      { s: tag },
      admin,
    );
    expect(adminList.adminFiles.items).toEqual(library.audioFiles.items);
    for (const item of adminList.adminFiles.items) {
      const single = (await gqlData<{ adminFile: FileFields }>(one('adminFile'), { id: item.id }, admin)).adminFile;
      expect(item).toEqual(asListed(single));
    }

    const restList = await restData<FileFields[]>(`/files?search=${tag}`, session);
    expect(restList.map((f) => f.id)).toEqual([open.id, granted.id]);
    for (const item of restList) {
      const { chapters, ...detail } = await restData<FileFields & { chapters: unknown[] }>(
        `/files/${item.id}`,
        session,
      );
      expect(chapters).toEqual([]);
      expect(item).toEqual(asListed(detail));
    }
    expect(restList[1]).toMatchObject({ size: 5_000_000_123, duration: 61.25, description: null });
    expect(await restData<FileFields[]>(`/admin/files?search=${tag}`, admin)).toEqual(restList);
  });

  it('give every field of a user as reading the user itself does, in the admin list', async () => {
    const tag = randomUUID().slice(0, 8);
    const listener = await createUser(t, { name: `${tag} listener` });
    const locked = await createUser(t, { name: `${tag} locked`, isLocked: true });
    await createUser(t, { name: `${tag} admin`, role: UserRole.admin });
    const em = t.app.orm.em.fork();
    await em.nativeUpdate(
      User,
      { id: locked.id },
      { lockUntil: new Date(Date.now() + 60_000), avatarUrl: 'https://example.com/a.png' },
    );
    await signIn(t, listener.email);

    const fields = await scalarFields('User');
    expect(fields.split(' ')).toEqual(expect.arrayContaining(['isAdmin', 'lockUntil', 'sessionCount']));
    type UserFields = Record<string, unknown> & { id: string };
    const list = await gqlData<{ adminUsers: { total: number; items: UserFields[] } }>(
      `query ($s: String) { adminUsers(search: $s, offset: 0, limit: 10) { total items { ${fields} } } }`,
      { s: tag },
      admin,
    );
    expect(list.adminUsers.total).toBe(3);
    expect(list.adminUsers.items.map((u) => u.isAdmin)).toEqual([true, false, false]);
    for (const item of list.adminUsers.items) {
      const single = await gqlData<{ adminUser: UserFields }>(
        `query ($id: ID!) { adminUser(id: $id) { ${fields} } }`,
        { id: item.id },
        admin,
      );
      expect(item).toEqual(single.adminUser);
    }

    const restList = await restData<(UserFields & { sessionCount: number; hasMultipleSessions: boolean })[]>(
      `/admin/users/with-sessions?search=${tag}`,
      admin,
    );
    expect(restList.map((u) => u.id)).toEqual(list.adminUsers.items.map((u) => u.id));
    for (const { sessionCount, hasMultipleSessions, ...item } of restList) {
      expect(item).toEqual(await restData<UserFields>(`/admin/users/${item.id}`, admin));
      expect({ sessionCount, hasMultipleSessions }).toEqual({
        sessionCount: item.id === listener.id ? 1 : 0,
        hasMultipleSessions: false,
      });
    }
  });
});
