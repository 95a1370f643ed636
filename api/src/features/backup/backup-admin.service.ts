import type { Writable } from 'node:stream';
import type { Ctx } from '../../context.js';
import { requireAdmin } from '../../caller-policy.js';
import { latestBackupStatus, recordBackupEvent, type BackupStatus } from './backup-audit.js';
import { writeBackup, type BackupSummary } from './backup.service.js';

/** The download name of an administrator's backup taken at `at`. */
export const backupFileName = (at: Date): string =>
  `pal-backup-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}.tar`;

/**
 * Administrators: a backup of the running server streamed into `out` (a download's response):
 * the in-process way to back up the embedded database, which the command cannot open while the
 * server holds it. Recorded in the audit log under the administrator's name, like a scheduled run.
 */
export async function streamBackup(ctx: Ctx, out: Writable): Promise<BackupSummary> {
  const { user } = requireAdmin(ctx);
  const em = ctx.em.fork();
  try {
    const summary = await writeBackup({ em, dataDir: ctx.deps.config.dataDir }, out);
    const { bytes, durationMs, mediaFiles } = summary;
    recordBackupEvent(em, 'backup.completed', { bytes, durationMs, mediaFiles, download: true }, user);
    return summary;
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    recordBackupEvent(em, 'backup.failed', { error, download: true }, user);
    throw err;
  } finally {
    await em.flush();
  }
}

/** Administrators: the latest backup runs, for the dashboard. */
export async function backupStatus(ctx: Ctx): Promise<BackupStatus> {
  requireAdmin(ctx);
  return latestBackupStatus(ctx.em);
}
