import { listsTheFileWhenVisible, type Case, type MatrixWorld } from './permission-matrix.rules.js';

/**
 * The cursor connections and the grant form's candidate search: each follows exactly the rule of
 * the offset list it pages (the same service checks and the same visibility).
 */
export const connectionCases = (w: MatrixWorld): Record<string, Case> => ({
  'query audioFilesConnection': {
    rule: 'signedIn',
    run: (s) => w.gql('{ audioFilesConnection(first: 100) { totalCount edges { cursor node { id } } } }', {}, s),
    check: listsTheFileWhenVisible(w),
  },
  'query adminFilesConnection': {
    rule: 'admin',
    run: (s) => w.gql('{ adminFilesConnection(status: PRIVATE) { totalCount edges { node { id } } } }', {}, s),
  },
  'query adminUsersConnection': {
    rule: 'admin',
    run: (s) => w.gql('{ adminUsersConnection { totalCount edges { node { id } } } }', {}, s),
  },
  'query userSessionsConnection': {
    rule: 'admin',
    run: (s) =>
      w.gql(
        'query ($id: ID!) { userSessionsConnection(userId: $id) { edges { node { id } } } }',
        { id: w.liveUserId },
        s,
      ),
  },
  'query myDevicesConnection': {
    rule: 'signedIn',
    run: (s) => w.gql('{ myDevicesConnection { totalCount edges { node { id isCurrent } } } }', {}, s),
  },
  'query auditLogConnection': {
    rule: 'admin',
    run: (s) => w.gql('{ auditLogConnection(first: 5) { totalCount pageInfo { endCursor } } }', {}, s),
  },
  'query fileAccessConnection': {
    rule: 'admin',
    run: (s) =>
      w.gql(
        'query ($id: ID!) { fileAccessConnection(fileId: $id) { edges { node { status } } } }',
        { id: w.fileId },
        s,
      ),
  },
  'query grantCandidates': {
    rule: 'admin',
    run: (s) => w.gql('query ($id: ID!) { grantCandidates(fileId: $id) { total items { id } } }', { id: w.fileId }, s),
  },
});
