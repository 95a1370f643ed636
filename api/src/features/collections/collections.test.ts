import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFiles, grantFile } from '../../test/library-fixtures.js';
import { FileAccess } from '../access/file-access.entity.js';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
});

interface CollectionView {
  id: string;
  name: string;
  description: string | null;
  fileCount: number;
  files: { id: string; title: string }[];
}

const FIELDS = 'id name description fileCount files { id title }';
const COLLECTION = `query ($id: ID!) { collection(id: $id) { ${FIELDS} } }`;
const COLLECTIONS = `{ collections { ${FIELDS} } }`;

async function makeCollection(name: string, fileIds: string[] = []): Promise<string> {
  const made = await t.rest<{ data: CollectionView }>('POST', '/admin/collections', { name }, admin);
  expect(made.status).toBe(201);
  for (const fileId of fileIds) {
    const added = await t.rest('POST', `/admin/collections/${made.body.data.id}/files`, { fileId }, admin);
    expect(added.status).toBe(200);
  }
  return made.body.data.id;
}

const collectionOf = async (id: string, s: Session) =>
  (await t.gql<{ collection: CollectionView }>(COLLECTION, { id }, s)).data?.collection;

describe('collections', () => {
  it('lets an administrator make, describe, fill, order, rename and delete a collection', async () => {
    const files = await createAudioFiles(t, 3, { isPublic: true });
    const created = await t.gql<{ createCollection: CollectionView }>(
      `mutation { createCollection(input: { name: "  Sleep stories ", description: "For the night" }) { ${FIELDS} } }`,
      {},
      admin,
    );
    const collection = created.data!.createCollection;
    expect(collection).toMatchObject({ name: 'Sleep stories', description: 'For the night', fileCount: 0, files: [] });

    for (const file of files) {
      await t.gql(
        'mutation ($id: ID!, $f: ID!) { addToCollection(id: $id, fileId: $f) { id } }',
        {
          id: collection.id,
          f: file.id,
        },
        admin,
      );
    }
    // Adding a file again keeps its place.
    await t.rest('POST', `/admin/collections/${collection.id}/files`, { fileId: files[0].id }, admin);
    expect((await collectionOf(collection.id, admin))?.files.map((f) => f.id)).toEqual(files.map((f) => f.id));

    const order = [files[2].id, files[0].id, files[1].id];
    const reordered = await t.gql<{ reorderCollection: CollectionView }>(
      `mutation ($id: ID!, $ids: [ID!]!) { reorderCollection(id: $id, fileIds: $ids) { ${FIELDS} } }`,
      { id: collection.id, ids: order },
      admin,
    );
    expect(reordered.data?.reorderCollection.files.map((f) => f.id)).toEqual(order);
    const rest = await t.rest<{ data: CollectionView }>('GET', `/collections/${collection.id}`, undefined, admin);
    expect(rest.body.data.files.map((f) => f.id)).toEqual(order);

    // A stale order (missing a file, or naming one not in it) is refused, and nothing moves.
    const stale = await t.rest('PUT', `/admin/collections/${collection.id}/order`, { fileIds: order.slice(1) }, admin);
    expect(stale.status).toBe(409);
    const repeated = await t.rest(
      'PUT',
      `/admin/collections/${collection.id}/order`,
      { fileIds: [order[0], order[0], order[1]] },
      admin,
    );
    expect(repeated.body).toMatchObject({ message: 'fileIds must not repeat a file' });
    expect((await collectionOf(collection.id, admin))?.files.map((f) => f.id)).toEqual(order);

    const removed = await t.rest<{ data: CollectionView }>(
      'DELETE',
      `/admin/collections/${collection.id}/files/${files[0].id}`,
      undefined,
      admin,
    );
    expect(removed.body.data.files.map((f) => f.id)).toEqual([files[2].id, files[1].id]);
    expect(removed.body.data.fileCount).toBe(2);
    expect(
      (await t.rest('DELETE', `/admin/collections/${collection.id}/files/${files[0].id}`, undefined, admin)).status,
    ).toBe(404);

    const renamed = await t.rest<{ data: CollectionView }>(
      'PATCH',
      `/admin/collections/${collection.id}`,
      { name: 'Bedtime' },
      admin,
    );
    expect(renamed.body.data).toMatchObject({ name: 'Bedtime', description: 'For the night' });
    const cleared = await t.gql<{ updateCollection: CollectionView }>(
      'mutation ($id: ID!) { updateCollection(id: $id, input: { description: "" }) { name description } }',
      { id: collection.id },
      admin,
    );
    expect(cleared.data?.updateCollection).toEqual({ name: 'Bedtime', description: null });
    const blank = await t.rest('PATCH', `/admin/collections/${collection.id}`, { name: '   ' }, admin);
    expect(blank.body).toMatchObject({ message: 'Collection name is required' });
    const noName = await t.rest('POST', '/admin/collections', {}, admin);
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ message: 'Collection name is required' });

    expect((await t.rest('DELETE', `/admin/collections/${collection.id}`, undefined, admin)).status).toBe(200);
    const gone = await t.gql(COLLECTION, { id: collection.id }, admin);
    expect(gone.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    // Its files stay in the library.
    expect((await t.rest('GET', `/files/${files[0].id}`, undefined, admin)).status).toBe(200);
  });

  it('shows a user only the files they may see, and no collection without one', async () => {
    const [shared, secret, expiring, open] = await createAudioFiles(t, 4);
    const [publicFile] = await createAudioFiles(t, 1, { isPublic: true });
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    const grants = await grantFile(t, user.id, [shared.id]);
    await grantFile(t, user.id, [expiring.id], { expiresAt: new Date(Date.now() - 1000) });
    await grantFile(t, user.id, [open.id], { canView: false });

    const mixed = await makeCollection('Mixed', [secret.id, shared.id, expiring.id, publicFile.id, open.id]);
    const hidden = await makeCollection('Hidden', [secret.id, expiring.id, open.id]);
    const empty = await makeCollection('Empty');

    const seen = await collectionOf(mixed, s);
    expect(seen?.fileCount).toBe(2);
    expect(seen?.files.map((f) => f.id)).toEqual([shared.id, publicFile.id]);
    const rest = await t.rest<{ data: CollectionView }>('GET', `/collections/${mixed}`, undefined, s);
    expect(rest.body.data.files.map((f) => f.id)).toEqual([shared.id, publicFile.id]);
    expect(JSON.stringify(rest.body)).not.toContain(secret.id);

    for (const id of [hidden, empty]) {
      const answer = await t.gql(COLLECTION, { id }, s);
      expect(answer.errors?.[0].extensions?.code, id).toBe('NOT_FOUND');
      const byRest = await t.rest('GET', `/collections/${id}`, undefined, s);
      expect(byRest.status).toBe(404);
      expect(byRest.body).toMatchObject({ message: 'Collection not found' });
    }
    const list = await t.gql<{ collections: CollectionView[] }>(COLLECTIONS, {}, s);
    const ids = list.data!.collections.map((c) => c.id);
    expect(ids).toContain(mixed);
    expect(ids).not.toContain(hidden);
    expect(ids).not.toContain(empty);
    expect(JSON.stringify(list)).not.toContain(secret.id);
    const restList = await t.rest<{ data: CollectionView[] }>('GET', '/collections', undefined, s);
    expect(restList.body.data.find((c) => c.id === mixed)?.fileCount).toBe(2);
    expect(restList.body.data.map((c) => c.id)).not.toContain(hidden);

    // Administrators see every collection, the empty one too, with every file.
    const all = await t.gql<{ collections: CollectionView[] }>(COLLECTIONS, {}, admin);
    expect(all.data!.collections.find((c) => c.id === empty)?.fileCount).toBe(0);
    expect(all.data!.collections.find((c) => c.id === mixed)?.fileCount).toBe(5);

    // A revoked grant takes the file, then the whole collection, out of view.
    await t.app.orm.em.fork().nativeUpdate(FileAccess, { id: grants[0].id }, { canView: false });
    expect((await collectionOf(mixed, s))?.files.map((f) => f.id)).toEqual([publicFile.id]);
    await t.rest('DELETE', `/admin/collections/${mixed}/files/${publicFile.id}`, undefined, admin);
    expect((await t.gql(COLLECTION, { id: mixed }, s)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('reads the files of every collection in one statement', async () => {
    const files = await createAudioFiles(t, 6, { isPublic: true });
    for (let i = 0; i < 4; i++)
      await makeCollection(
        `Batch ${i}`,
        files.slice(i, i + 3).map((f) => f.id),
      );
    const query =
      '{ collections { id fileCount files(limit: 2) { id title coverUrl progress { position } wantToListen } } }';
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    await t.gql(query, {}, s);
    const { result, statements } = await countQueries(() =>
      t.gql<{ collections: { files: unknown[] }[] }>(query, {}, s),
    );
    expect(result.data!.collections.length).toBeGreaterThanOrEqual(4);
    expect(result.data!.collections.every((c) => c.files.length <= 2)).toBe(true);
    expect(statements.filter((q) => /from collection_items ci join/.test(q))).toHaveLength(1);
    expect(statements.filter((q) => /from want_to_listen where/.test(q))).toHaveLength(1);
    expect(statements.filter((q) => /from listening_progress where/.test(q))).toHaveLength(1);
  });
});
