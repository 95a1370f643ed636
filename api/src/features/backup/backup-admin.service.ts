import type { Writable } from 'node:stream';
import { isAdmin, requireAdmin, requireDeviceCaller } from '../../caller-policy.js';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { signParts, verifyParts } from '../../signing.js';
import { uuidPattern } from '../../validation.js';
import { sessionRefusal, sessionStateOf } from '../auth/authenticate.js';
import { DeviceSession } from '../auth/device-session.entity.js';
import { isLiveExpiry, queryInteger, queryString } from '../../http/url-signing.js';
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

/** A download link lives a minute: long enough to follow, too short to be worth sharing. */
const LINK_MS = 60_000;
const LINK_PURPOSE = 'backup-download:v1';
const LINK_REFUSED = 'This backup link is invalid or has expired: ask for a new one';

export interface BackupLink {
  url: string;
  expiresAt: Date;
}

/**
 * Administrators on a device: a link the browser can follow to download a backup as a file (a
 * bearer token cannot ride on a plain download), signed for this device session and a minute.
 */
export function backupLink(ctx: Ctx): BackupLink {
  const { session } = requireDeviceCaller(ctx);
  requireAdmin(ctx);
  const exp = Date.now() + LINK_MS;
  const parts = [session.id, session.createdAt.getTime(), exp];
  const sig = signParts(ctx.deps.config.secret, LINK_PURPOSE, parts);
  const query = new URLSearchParams({ sid: session.id, st: String(parts[1]), exp: String(exp), sig });
  return { url: `/api/v1/admin/backup?${query}`, expiresAt: new Date(exp) };
}

/**
 * The administrator a download link was issued to, if the link is genuine and live and its device
 * session still is, and its account is an unlocked administrator's; otherwise FORBIDDEN.
 */
export async function backupLinkCaller(ctx: Ctx, query: Record<string, unknown>): Promise<Ctx> {
  const sid = queryString(query.sid);
  const st = queryInteger(query.st);
  const exp = queryInteger(query.exp);
  const sig = queryString(query.sig);
  const genuine =
    sid !== null &&
    st !== null &&
    sig !== null &&
    isLiveExpiry(exp) &&
    exp - Date.now() <= LINK_MS &&
    verifyParts(ctx.deps.config.secret, LINK_PURPOSE, [sid, st, exp], sig);
  const session =
    genuine && uuidPattern.test(sid) ? await ctx.em.findOne(DeviceSession, sid, { populate: ['user'] }) : null;
  if (!session || sessionRefusal(sessionStateOf(session), session.user, st) !== null || !isAdmin(session.user)) {
    throw new AppError('FORBIDDEN', LINK_REFUSED);
  }
  return { ...ctx, caller: { user: session.user, session, apiKey: null } };
}
