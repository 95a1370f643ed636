import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import type { AuditAction } from '../audit/audit.service.js';
import type { User } from '../users/user.entity.js';

/**
 * A backup run in the audit log: `backup.started` (a scheduled run's claim on its slot), then
 * `backup.completed` with its size and duration, or `backup.failed` with the reason. The log is
 * the record the dashboard reads (latestBackupStatus); no table of its own.
 */
export function recordBackupEvent(
  em: EntityManager,
  action: Extract<AuditAction, `backup.${string}`>,
  details: Record<string, unknown>,
  actor: User | null = null,
): void {
  em.persist(em.create(AuditEntry, { action, user: actor, actorEmail: actor?.email ?? null, details }));
}

export interface BackupRunRecord {
  at: Date;
  details: Record<string, unknown>;
}

/** What the administrators' dashboard shows of the scheduled backups. */
export interface BackupStatus {
  lastSuccess: BackupRunRecord | null;
  lastFailure: BackupRunRecord | null;
  /** The latest scheduled run failed: the dashboard raises it until one succeeds. */
  failing: boolean;
}

/** The latest scheduled run (one with a slot) that ended in `action`; downloads leave the status alone. */
async function latest(em: EntityManager, action: AuditAction): Promise<BackupRunRecord | null> {
  const [row] = await em.getConnection().execute<{ created_at: Date; details: Record<string, unknown> }[]>(
    `select created_at, details from audit_log where action = ? and details->>'slot' is not null
      order by created_at desc, id desc limit 1`,
    [action],
  );
  return row ? { at: new Date(row.created_at), details: row.details } : null;
}

export async function latestBackupStatus(em: EntityManager): Promise<BackupStatus> {
  const lastSuccess = await latest(em, 'backup.completed');
  const lastFailure = await latest(em, 'backup.failed');
  const failing = lastFailure !== null && (lastSuccess === null || lastFailure.at > lastSuccess.at);
  return { lastSuccess, lastFailure, failing };
}
