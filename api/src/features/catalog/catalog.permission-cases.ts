import type { Case, MatrixWorld } from '../access/permission-matrix.rules.js';

const visibility = 'who sees which author and series: src/features/catalog/catalog-visibility.test.ts';

/** The permission matrix's cases for the catalog (features/access/permission-matrix.test.ts). */
export const permissionCases = (w: MatrixWorld): Record<string, Case> => ({
  'query authors': { rule: 'signedIn', run: (s) => w.gql('{ authors { total } }', {}, s) },
  'query narrators': { rule: 'signedIn', run: (s) => w.gql('{ narrators { total } }', {}, s) },
  'query seriesList': { rule: 'signedIn', run: (s) => w.gql('{ seriesList { total } }', {}, s) },
  'query genres': { rule: 'signedIn', run: (s) => w.gql('{ genres { name } }', {}, s) },
  'GET /authors': { rule: 'signedIn', run: (s) => w.rest('GET', '/authors', undefined, s) },
  'GET /narrators': { rule: 'signedIn', run: (s) => w.rest('GET', '/narrators', undefined, s) },
  'GET /series': { rule: 'signedIn', run: (s) => w.rest('GET', '/series', undefined, s) },
  'GET /genres': { rule: 'signedIn', run: (s) => w.rest('GET', '/genres', undefined, s) },
  'GET /files/:id/book': { rule: 'visibleFile', run: (s) => w.rest('GET', `/files/${w.fileId}/book`, undefined, s) },
  'PUT /admin/files/:id/book': {
    rule: 'admin',
    run: (s) => w.rest('PUT', `/admin/files/${w.fileId}/book`, { publisher: 'Matrix Press' }, s),
  },
  'mutation updateBook': {
    rule: 'admin',
    run: (s) =>
      w.gql('mutation($id: ID!) { updateBook(fileId: $id, input: { year: 2020 }) { id } }', { id: w.fileId }, s),
  },
});

/** A person's or series' page answers by the books the caller may see: walked with hidden and granted books. */
export const coveredElsewhere: Record<string, string> = {
  'query author': visibility,
  'query series': visibility,
  'GET /authors/:id': visibility,
  'GET /series/:id': visibility,
};
