import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps, Ctx, RequestMeta } from '../../context.js';
import type { RipAlertPayload } from '../../event-bus.js';
import type { SessionFacts, UserFacts } from '../access/access-facts.js';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import { recordAudit } from '../audit/audit.service.js';
import { publishApiKeysChanged } from '../api-keys/api-keys.service.js';
import { isAdmin } from '../auth/auth.policy.js';
import { DeviceSession } from '../auth/device-session.entity.js';
import { endSessions } from '../auth/device-sessions.js';
import { publishSecurityEvent } from '../auth/security-events.js';
import { User } from '../users/user.entity.js';
import type { Listener, Offence } from './rip-meter.js';

export const RIP_SUSPECTED = 'stream.rip_suspected';
export const RIP_LOCK_MESSAGE =
  'Your account has been locked because it fetched audio much faster than it can be played. Contact support to unlock it.';

/** An IPv4 client seen through an IPv6 socket is the same client. */
export function clientAddress(ip: string | null): string | null {
  return ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/** The metered side of a byte request: its session and account, and where its offences go. */
export function listenerFor(ctx: Ctx, facts: { session: SessionFacts; user: UserFacts }): Listener {
  return {
    sessionId: facts.session.id,
    sessionStart: facts.session.startedAt.getTime(),
    userId: facts.user.id,
    exempt: isAdmin(facts.user),
    address: clientAddress(ctx.meta.ip),
    report: offenceReporter(ctx),
  };
}

/** Records offences after the request that raised them, on an EntityManager of their own. */
export function offenceReporter(ctx: Pick<Ctx, 'em' | 'deps' | 'meta'>): Listener['report'] {
  return (offence) => {
    recordOffence(ctx.deps, ctx.em.fork(), ctx.meta, offence).catch((err: unknown) =>
      ctx.deps.logger.error('rip.offence_not_recorded', { userId: offence.userId, error: String(err) }),
    );
  };
}

/** Offences of the account since `since` that count towards the lock; an unlock starts the count again. */
async function countsSince(tx: EntityManager, user: User, hours: number): Promise<Date> {
  const lastUnlock = await tx.findOne(
    AuditEntry,
    { user, action: 'account.unlocked' },
    { orderBy: { createdAt: 'desc' }, fields: ['createdAt'] },
  );
  const since = new Date(Date.now() - hours * 3600_000);
  return lastUnlock && lastUnlock.createdAt > since ? lastUnlock.createdAt : since;
}

/**
 * Writes the audit entry of an offence and, when it is the account's `lockOffences`-th within
 * `lockHours`, locks the account as the device policy does: isLocked, its sessions ended with a
 * reason, a forced logout pushed to them. Then tells administrators and every replica's meter.
 */
export async function recordOffence(
  deps: AppDeps,
  em: EntityManager,
  meta: RequestMeta,
  offence: Offence,
): Promise<void> {
  const { lockOffences, lockHours, throttleSeconds } = deps.config.ripDetection;
  const outcome = await em.transactional(async (tx) => {
    // The row lock queues offences of one account, so the one reaching the limit is counted once.
    const user = await tx.findOne(User, { id: offence.userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!user) return null;
    const since = await countsSince(tx, user, lockHours);
    const earlier = await tx.count(AuditEntry, { user, action: RIP_SUSPECTED, createdAt: { $gte: since } });
    const locks = earlier + 1 >= lockOffences && !user.isLocked && !isAdmin(user);
    const ctx = { em: tx, deps, meta, caller: null };
    const { rule, fileId, chapterId, addresses, coverage, elapsedSeconds, keys } = offence;
    const entry = recordAudit(
      ctx,
      {
        action: RIP_SUSPECTED,
        user,
        deviceSessionId: offence.sessionId,
        details: {
          rule,
          fileId,
          chapterId,
          addresses,
          coverage,
          elapsedSeconds,
          keys,
          servedSeconds: Math.round(offence.servedSeconds),
          speed: Math.round(offence.speed * 10) / 10,
          windowSeconds: offence.windowSeconds,
          offences: earlier + 1,
          accountLocked: locks,
        },
      },
      tx,
    );
    let ended: string[] = [];
    if (locks) {
      user.isLocked = true;
      const active = await tx.find(DeviceSession, { user, isActive: true });
      endSessions(active, 'rip_suspected');
      ended = active.map((s) => s.id);
      recordAudit(
        ctx,
        { action: 'account.locked_rip', user, details: { offences: earlier + 1, endedSessions: ended.length } },
        tx,
      );
    }
    await tx.flush();
    return { user, entry, ended, locks };
  });
  if (!outcome) return;
  const { user, entry, ended, locks } = outcome;
  const alert: RipAlertPayload = {
    id: String(entry.id),
    userId: user.id,
    email: user.email,
    sessionId: offence.sessionId,
    sessionStart: offence.sessionStart,
    rule: offence.rule,
    fileId: offence.fileId,
    speed: offence.speed,
    windowSeconds: offence.windowSeconds,
    addresses: offence.addresses,
    accountLocked: locks,
    throttledUntil: new Date(entry.createdAt.getTime() + throttleSeconds * 1000).toISOString(),
    at: entry.createdAt.toISOString(),
  };
  deps.pubSub.publish('RIP_SUSPECTED', alert);
  if (locks) {
    publishSecurityEvent(deps.pubSub, user.id, 'FORCED_LOGOUT', { sessionIds: ended, message: RIP_LOCK_MESSAGE });
    publishApiKeysChanged(deps.pubSub, user.id);
  }
}
