import type { Case, MatrixWorld } from '../access/permission-matrix.rules.js';

/** The permission matrix's cases for the backup routes (features/access/permission-matrix.test.ts). */
export const permissionCases = (w: MatrixWorld): Record<string, Case> => ({
  'POST /admin/backup/link': { rule: 'admin', run: (s) => w.rest('POST', '/admin/backup/link', undefined, s) },
  'mutation createBackupLink': { rule: 'admin', run: (s) => w.gql('mutation { createBackupLink { url } }', {}, s) },
  'GET /admin/backup/status': { rule: 'admin', run: (s) => w.rest('GET', '/admin/backup/status', undefined, s) },
});

export const coveredElsewhere: Record<string, string> = {
  'GET /admin/backup': 'a download link, as each caller: src/features/backup/backup-download.test.ts',
};
