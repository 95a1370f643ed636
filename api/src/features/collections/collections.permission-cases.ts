import { expect } from 'vitest';
import type { Case, MatrixWorld, Outcome, Persona } from '../access/permission-matrix.rules.js';

/**
 * The permission matrix's cases for collections and "Want to listen"
 * (features/access/permission-matrix.test.ts). The collection holds only the matrix's private
 * file: whoever may not see that file may not see the collection either.
 */
export const permissionCases = (w: MatrixWorld): Record<string, Case> => {
  let made: Promise<string> | undefined;
  let madeId = '';
  /** A collection holding the private file, made once by the administrator. */
  const collection = () =>
    (made ??= (async () => {
      const created = JSON.parse(
        (await w.rest('POST', '/admin/collections', { name: 'Matrix collection' }, w.admin())).text,
      ) as { data: { id: string } };
      await w.rest('POST', `/admin/collections/${created.data.id}/files`, { fileId: w.fileId }, w.admin());
      madeId = created.data.id;
      return madeId;
    })());
  /** A fresh empty collection for a change (an unknown id for those who may not make one). */
  const fresh = async (s: Parameters<Case['run']>[0]) => {
    const res = await w.rest('POST', '/admin/collections', { name: 'To change' }, s);
    return res.code === 'ok' ? (JSON.parse(res.text) as { data: { id: string } }).data.id : crypto.randomUUID();
  };
  // Checked after run(), which made the collection first.
  const listsCollectionWhenVisible = (persona: Persona, outcome: Outcome) => {
    expect(madeId).not.toBe('');
    expect(outcome.text.includes(madeId), `${persona} collections`).toBe(
      persona === 'liveGrant' || persona === 'admin',
    );
  };
  const COLLECTION = 'query ($id: ID!) { collection(id: $id) { id fileCount files { id } } }';
  return {
    'GET /collections': {
      rule: 'signedIn',
      run: async (s) => (await collection(), w.rest('GET', '/collections', undefined, s)),
      check: listsCollectionWhenVisible,
    },
    'query collections': {
      rule: 'signedIn',
      run: async (s) => (await collection(), w.gql('{ collections { id files { id } } }', {}, s)),
      check: listsCollectionWhenVisible,
    },
    'GET /collections/:id': {
      rule: 'visibleFile',
      run: async (s) => w.rest('GET', `/collections/${await collection()}`, undefined, s),
    },
    'query collection': { rule: 'visibleFile', run: async (s) => w.gql(COLLECTION, { id: await collection() }, s) },
    'POST /admin/collections': {
      rule: 'admin',
      run: (s) => w.rest('POST', '/admin/collections', { name: 'Made' }, s),
    },
    'mutation createCollection': {
      rule: 'admin',
      run: (s) => w.gql('mutation { createCollection(input: { name: "Made" }) { id } }', {}, s),
    },
    'PATCH /admin/collections/:id': {
      rule: 'admin',
      run: async (s) => w.rest('PATCH', `/admin/collections/${await fresh(s)}`, { name: 'Renamed' }, s),
    },
    'mutation updateCollection': {
      rule: 'admin',
      run: async (s) =>
        w.gql(
          'mutation ($id: ID!) { updateCollection(id: $id, input: { name: "Renamed" }) { id } }',
          {
            id: await fresh(s),
          },
          s,
        ),
    },
    'DELETE /admin/collections/:id': {
      rule: 'admin',
      run: async (s) => w.rest('DELETE', `/admin/collections/${await fresh(s)}`, undefined, s),
    },
    'mutation deleteCollection': {
      rule: 'admin',
      run: async (s) => w.gql('mutation ($id: ID!) { deleteCollection(id: $id) }', { id: await fresh(s) }, s),
    },
    'POST /admin/collections/:id/files': {
      rule: 'admin',
      run: async (s) => w.rest('POST', `/admin/collections/${await fresh(s)}/files`, { fileId: w.fileId }, s),
    },
    'mutation addToCollection': {
      rule: 'admin',
      run: async (s) =>
        w.gql(
          'mutation ($id: ID!, $f: ID!) { addToCollection(id: $id, fileId: $f) { id } }',
          {
            id: await fresh(s),
            f: w.fileId,
          },
          s,
        ),
    },
    'DELETE /admin/collections/:id/files/:fileId': {
      rule: 'admin',
      run: async (s) => {
        const id = await fresh(s);
        await w.rest('POST', `/admin/collections/${id}/files`, { fileId: w.fileId }, s);
        return w.rest('DELETE', `/admin/collections/${id}/files/${w.fileId}`, undefined, s);
      },
    },
    'mutation removeFromCollection': {
      rule: 'admin',
      run: async (s) => {
        const id = await fresh(s);
        await w.rest('POST', `/admin/collections/${id}/files`, { fileId: w.fileId }, s);
        return w.gql(
          'mutation ($id: ID!, $f: ID!) { removeFromCollection(id: $id, fileId: $f) { id } }',
          {
            id,
            f: w.fileId,
          },
          s,
        );
      },
    },
    'PUT /admin/collections/:id/order': {
      rule: 'admin',
      run: async (s) => w.rest('PUT', `/admin/collections/${await fresh(s)}/order`, { fileIds: [] }, s),
    },
    'mutation reorderCollection': {
      rule: 'admin',
      run: async (s) =>
        w.gql('mutation ($id: ID!) { reorderCollection(id: $id, fileIds: []) { id } }', { id: await fresh(s) }, s),
    },
    'GET /want-to-listen': { rule: 'signedIn', run: (s) => w.rest('GET', '/want-to-listen', undefined, s) },
    'query wantToListen': { rule: 'signedIn', run: (s) => w.gql('{ wantToListen { id wantToListen } }', {}, s) },
    'PUT /want-to-listen/:fileId': {
      rule: 'visibleFile',
      run: (s) => w.rest('PUT', `/want-to-listen/${w.fileId}`, undefined, s),
    },
    'mutation addToWantToListen': {
      rule: 'visibleFile',
      run: (s) => w.gql('mutation ($f: ID!) { addToWantToListen(fileId: $f) { id } }', { f: w.fileId }, s),
    },
    'DELETE /want-to-listen/:fileId': {
      rule: 'visibleFile',
      run: (s) => w.rest('DELETE', `/want-to-listen/${w.fileId}`, undefined, s),
    },
    'mutation removeFromWantToListen': {
      rule: 'visibleFile',
      run: (s) => w.gql('mutation ($f: ID!) { removeFromWantToListen(fileId: $f) { id } }', { f: w.fileId }, s),
    },
  };
};
