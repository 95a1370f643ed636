import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../context.js';
import {
  findConnection,
  findOffsetPage,
  mapConnection,
  type Connection,
  type ConnectionInput,
  type ListQuery,
  type Page,
} from '../../paging.js';
import { requireAdmin } from '../../caller-policy.js';
import type { User } from '../users/user.entity.js';
import { AuditEntry } from './audit-entry.entity.js';
import { allOf } from '../../sql-condition.js';
import type { AuditLogEntry, AuditLogPage } from './audit.types.js';

export type AuditAction =
  | 'login.success'
  | 'login.failed'
  | 'login.approval_required'
  | 'login.temporary_lock'
  | 'login.rejected_locked'
  | 'account.locked_multi_device'
  | 'account.unlocked'
  | 'account.registered'
  | 'logout'
  | 'device.deactivated'
  | 'device.deactivated_others'
  | 'session.terminated'
  | 'profile.updated'
  | 'user.created'
  | 'user.updated'
  | 'user.deleted'
  | 'access.granted'
  | 'access.revoked'
  | 'file.uploaded'
  | 'file.updated'
  | 'file.deleted'
  | 'chapters.finalized'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'api_key.new_address'
  | 'api_key.revoked_rip'
  | 'stream.rip_suspected'
  | 'account.locked_rip'
  | 'backup.started'
  | 'backup.completed'
  | 'backup.failed';

export interface AuditInput {
  action: AuditAction;
  /** The account the event is about; defaults to the caller. */
  user?: User | null;
  email?: string | null;
  /** The device session it is about, when not the caller's (a byte request has no caller). */
  deviceSessionId?: string | null;
  details?: Record<string, unknown>;
}

/** Adds an audit entry to the unit of work; it is written with the change it describes. */
export function recordAudit(ctx: Ctx, input: AuditInput, em: EntityManager = ctx.em): AuditEntry {
  const user = input.user === undefined ? (ctx.caller?.user ?? null) : input.user;
  const entry = em.create(AuditEntry, {
    user,
    actorEmail: input.email ?? user?.email ?? null,
    action: input.action,
    deviceId: ctx.meta.deviceId,
    deviceSessionId: input.deviceSessionId ?? ctx.caller?.session?.id ?? null,
    ipAddress: ctx.meta.ip,
    userAgent: ctx.meta.userAgent,
    details: { ...input.details, ...(ctx.caller && input.user ? { actorId: ctx.caller.user.id } : {}) },
  });
  em.persist(entry);
  return entry;
}

interface AuditRow {
  id: string;
  user_id: string | null;
  actor_email: string | null;
  action: string;
  device_id: string | null;
  device_session_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown> | null;
  created_at: string;
}

/** The whole log, newest first; entries of the same instant by id, the later first. */
const AUDIT_LOG: ListQuery = {
  from: 'audit_log',
  columns: `id::text as id, user_id, actor_email, action, device_id, device_session_id, ip_address, user_agent,
            details, created_at`,
  where: allOf([]),
  ordering: {
    name: 'audit',
    keys: [
      { sql: 'audit_log.created_at', type: 'timestamptz', direction: 'desc' },
      { sql: 'audit_log.id', type: 'int8', direction: 'desc' },
    ],
  },
};

function toEntry(row: AuditRow): AuditLogEntry {
  return {
    id: row.id,
    userId: row.user_id,
    email: row.actor_email,
    action: row.action,
    deviceId: row.device_id,
    deviceSessionId: row.device_session_id,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    details: row.details,
    createdAt: new Date(row.created_at),
  };
}

/** Administrators: the audit log, one page at a time: two statements. */
export async function listAuditLog(ctx: Ctx, page: Partial<Page>): Promise<AuditLogPage> {
  requireAdmin(ctx);
  const { total, rows } = await findOffsetPage<AuditRow>(ctx.em, AUDIT_LOG, page);
  return { total, items: rows.map(toEntry) };
}

/** Administrators: the audit log as a cursor connection, for sync: two statements. */
export async function auditLogConnection(ctx: Ctx, page: ConnectionInput): Promise<Connection<AuditLogEntry>> {
  requireAdmin(ctx);
  return mapConnection(await findConnection<AuditRow>(ctx.em, AUDIT_LOG, page), (rows) => rows.map(toEntry));
}
