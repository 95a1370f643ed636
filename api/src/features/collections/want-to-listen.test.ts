import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn } from '../../test/factories.js';
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

const LIST = '{ wantToListen { id wantToListen } }';
const ADD = 'mutation ($f: ID!) { addToWantToListen(fileId: $f) { id wantToListen } }';
const REMOVE = 'mutation ($f: ID!) { removeFromWantToListen(fileId: $f) { id wantToListen } }';

describe('Want to listen', () => {
  it("keeps each user's own list, most recently added first, never shown to anyone else", async () => {
    const [first, second, third] = await createAudioFiles(t, 3, { isPublic: true });
    const alice = await signIn(t, (await createUser(t)).email);
    const bob = await signIn(t, (await createUser(t)).email);

    const added = await t.gql<{ addToWantToListen: { id: string; wantToListen: boolean } }>(
      ADD,
      { f: first.id },
      alice,
    );
    expect(added.data?.addToWantToListen).toEqual({ id: first.id, wantToListen: true });
    expect((await t.rest('PUT', `/want-to-listen/${second.id}`, undefined, alice)).status).toBe(200);
    await t.gql(ADD, { f: third.id }, alice);
    // Adding again keeps the first place.
    await t.gql(ADD, { f: first.id }, alice);

    const list = await t.gql<{ wantToListen: { id: string; wantToListen: boolean }[] }>(LIST, {}, alice);
    expect(list.data?.wantToListen).toEqual([
      { id: third.id, wantToListen: true },
      { id: second.id, wantToListen: true },
      { id: first.id, wantToListen: true },
    ]);
    const rest = await t.rest<{ data: { id: string }[] }>('GET', '/want-to-listen?limit=2', undefined, alice);
    expect(rest.body.data.map((f) => f.id)).toEqual([third.id, second.id]);

    // Bob sees the same files, but none of Alice's list.
    expect((await t.gql<{ wantToListen: unknown[] }>(LIST, {}, bob)).data?.wantToListen).toEqual([]);
    const bobsView = await t.gql<{ audioFile: { wantToListen: boolean } }>(
      'query ($id: ID!) { audioFile(id: $id) { wantToListen } }',
      { id: first.id },
      bob,
    );
    expect(bobsView.data?.audioFile.wantToListen).toBe(false);

    const removed = await t.gql<{ removeFromWantToListen: { wantToListen: boolean } }>(REMOVE, { f: second.id }, alice);
    expect(removed.data?.removeFromWantToListen.wantToListen).toBe(false);
    expect((await t.rest('DELETE', `/want-to-listen/${third.id}`, undefined, alice)).status).toBe(200);
    const after = await t.gql<{ wantToListen: { id: string }[] }>(LIST, {}, alice);
    expect(after.data?.wantToListen.map((f) => f.id)).toEqual([first.id]);
  });

  it('takes only files the caller may see, and drops one whose grant is revoked', async () => {
    const [granted, hidden] = await createAudioFiles(t, 2);
    const user = await createUser(t);
    const [grant] = await grantFile(t, user.id, [granted.id]);
    const s = await signIn(t, user.email);

    const refused = await t.rest('PUT', `/want-to-listen/${hidden.id}`, undefined, s);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ message: 'Audio file not found' });
    expect((await t.gql(ADD, { f: hidden.id }, s)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await t.rest('PUT', '/want-to-listen/not-an-id', undefined, s)).status).toBe(400);
    expect((await t.rest('GET', '/want-to-listen?limit=0', undefined, s)).status).toBe(400);

    await t.gql(ADD, { f: granted.id }, s);
    await t.app.orm.em.fork().nativeUpdate(FileAccess, { id: grant.id }, { canView: false });
    expect((await t.gql<{ wantToListen: unknown[] }>(LIST, {}, s)).data?.wantToListen).toEqual([]);
    // A new grant brings it back where it was.
    await t.app.orm.em.fork().nativeUpdate(FileAccess, { id: grant.id }, { canView: true });
    expect((await t.gql<{ wantToListen: { id: string }[] }>(LIST, {}, s)).data?.wantToListen.map((f) => f.id)).toEqual([
      granted.id,
    ]);
    const file = await createAudioFile(t, { isPublic: true });
    expect((await t.rest('PUT', `/want-to-listen/${file.id}`)).status).toBe(401);
  });
});
