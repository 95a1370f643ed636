import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../context.js';
import { parsePage, type Page } from '../../paging.js';
import { requireAdmin } from '../auth/auth.policy.js';
import type { User } from '../users/user.entity.js';
import { AuditEntry } from './audit-entry.entity.js';
import type { AuditLogPage } from './audit.types.js';

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
  | 'api_key.new_address';

export interface AuditInput {
  action: AuditAction;
  /** The account the event is about; defaults to the caller. */
  user?: User | null;
  email?: string | null;
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
    deviceSessionId: ctx.caller?.session?.id ?? null,
    ipAddress: ctx.meta.ip,
    userAgent: ctx.meta.userAgent,
    details: { ...input.details, ...(ctx.caller && input.user ? { actorId: ctx.caller.user.id } : {}) },
  });
  em.persist(entry);
  return entry;
}

/** Administrators: the audit log, newest first, one page at a time. */
export async function listAuditLog(ctx: Ctx, pageInput: Partial<Page>): Promise<AuditLogPage> {
  requireAdmin(ctx);
  const page = parsePage(pageInput);
  const [rows, total] = await ctx.em.findAndCount(
    AuditEntry,
    {},
    { orderBy: { createdAt: 'desc', id: 'desc' }, offset: page.offset, limit: page.limit },
  );
  return {
    total,
    items: rows.map((r) => ({
      id: String(r.id),
      userId: r.user?.id ?? null,
      email: r.actorEmail ?? null,
      action: r.action,
      deviceId: r.deviceId ?? null,
      deviceSessionId: r.deviceSessionId ?? null,
      ipAddress: r.ipAddress ?? null,
      userAgent: r.userAgent ?? null,
      details: r.details ?? null,
      createdAt: r.createdAt,
    })),
  };
}
