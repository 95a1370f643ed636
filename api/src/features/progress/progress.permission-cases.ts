import { listsTheFileWhenVisible, type Case, type MatrixWorld } from '../access/permission-matrix.rules.js';

/** The permission matrix's cases for finished books (features/access/permission-matrix.test.ts). */
export const permissionCases = (w: MatrixWorld): Record<string, Case> => ({
  'PUT /progress/:fileId/finished': {
    rule: 'visibleFile',
    run: (s) => w.rest('PUT', `/progress/${w.fileId}/finished`, { finished: true }, s),
  },
  'mutation markFinished': {
    rule: 'visibleFile',
    run: (s) =>
      w.gql('mutation ($id: ID!) { markFinished(fileId: $id, finished: true) { finished } }', { id: w.fileId }, s),
  },
  // Each caller first tries to mark the file finished: only those who may see it then find it listed.
  'GET /progress/finished': {
    rule: 'signedIn',
    run: async (s) => {
      await w.rest('PUT', `/progress/${w.fileId}/finished`, { finished: true }, s);
      return w.rest('GET', '/progress/finished', undefined, s);
    },
    check: listsTheFileWhenVisible(w),
  },
  'query finishedBooks': {
    rule: 'signedIn',
    run: async (s) => {
      await w.gql(
        'mutation ($id: ID!) { markFinished(fileId: $id, finished: true) { finished } }',
        { id: w.fileId },
        s,
      );
      return w.gql('{ finishedBooks { id progress { finished } } }', {}, s);
    },
    check: listsTheFileWhenVisible(w),
  },
});
