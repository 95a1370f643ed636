import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { component, dataBody, timestamp } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { sessionSignedQuery } from '../../http/url-signing.js';
import { backupFileName, backupLink, backupLinkCaller, backupStatus, streamBackup } from './backup-admin.service.js';

const linkQuery = sessionSignedQuery('Expiry (ms since the epoch), a minute after issue.');
const backupRun = z
  .object({
    at: timestamp,
    details: z
      .record(z.string(), z.unknown())
      .meta({ description: 'As the audit log has it: bytes, durationMs and mediaFiles, or the error.' }),
  })
  .nullable();
const backupStatusSchema = component(
  'BackupStatus',
  z
    .object({
      lastSuccess: backupRun,
      lastFailure: backupRun,
      failing: z.boolean().meta({ description: 'The latest scheduled backup failed, and none has succeeded since.' }),
    })
    .meta({ description: 'How the scheduled backups went.' }),
);

/** REST /api/v1/admin/backup: a backup of the running server, downloaded by an administrator. */
export const backupRoutes = routes([
  {
    operationId: 'createBackupLink',
    method: 'post',
    path: '/admin/backup/link',
    tag: 'backup',
    summary: 'A one-minute link to download a backup of the whole library',
    description:
      'Signed for your device session: follow it (a plain GET, no Authorization header) to download the archive as a file. docs/backups.md says what it holds.',
    caller: 'admin',
    answers: {
      200: { description: 'The link.', json: dataBody(z.object({ url: z.string(), expiresAt: timestamp })) },
    },
    // The archive holds everything (password hashes, chapter keys, the signing secret): a person on a device only.
    scopes: 'deviceOnly',
    async handle({ ctx, res }) {
      sendData(res, backupLink(ctx));
    },
  },
  {
    operationId: 'downloadBackup',
    method: 'get',
    path: '/admin/backup',
    tag: 'backup',
    summary: 'A backup archive of the whole library, streamed as it is taken',
    description:
      'The database as one consistent snapshot, the media and a manifest of their SHA-256, in one tar (npm run restore reads it). Recorded in the audit log.',
    caller: 'url',
    query: linkQuery,
    answers: { 200: { description: 'The archive.', bytes: 'application/x-tar' } },
    scopes: 'deviceOnly',
    async handle({ ctx, req, res }) {
      const admin = await backupLinkCaller(ctx, req.query);
      res.setHeader('Content-Type', 'application/x-tar');
      res.setHeader('Content-Disposition', `attachment; filename="${backupFileName(new Date())}"`);
      // A failure after the first bytes cuts the download short (the error handler ends the
      // connection); an archive without its manifest never restores.
      await streamBackup(admin, res);
    },
  },
  {
    operationId: 'backupStatus',
    method: 'get',
    path: '/admin/backup/status',
    tag: 'backup',
    summary: 'How the scheduled backups went: the latest success and failure',
    caller: 'admin',
    answers: { 200: { description: 'The status.', json: dataBody(backupStatusSchema) } },
    scopes: [ApiKeyScope.AUDIT_READ],
    async handle({ ctx, res }) {
      sendData(res, await backupStatus(ctx));
    },
  },
]);
