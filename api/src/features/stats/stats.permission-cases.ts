import type { Case, MatrixWorld } from '../access/permission-matrix.rules.js';

/** The permission matrix's cases for the stats (features/access/permission-matrix.test.ts). */
export const permissionCases = (w: MatrixWorld): Record<string, Case> => ({
  'GET /stats/me': { rule: 'signedIn', run: (s) => w.rest('GET', '/stats/me', undefined, s) },
  'query myListeningStats': {
    rule: 'signedIn',
    run: (s) => w.gql('{ myListeningStats { timeZone days { start seconds } } }', {}, s),
  },
  'GET /admin/stats/listening': { rule: 'admin', run: (s) => w.rest('GET', '/admin/stats/listening', undefined, s) },
  'query listeningOverview': {
    rule: 'admin',
    run: (s) => w.gql('{ listeningOverview { totalSeconds byTime { seconds } } }', {}, s),
  },
});
