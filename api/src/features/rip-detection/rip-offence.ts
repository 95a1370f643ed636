import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps, Ctx, RequestMeta } from '../../context.js';
import type { RipAlertPayload } from './rip-events.js';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import { recordAudit } from '../audit/audit.service.js';
import { ApiKey } from '../api-keys/api-key.entity.js';
import { publishApiKeysChanged } from '../api-keys/api-keys.service.js';
import { isAdmin } from '../../caller-policy.js';
import { DeviceSession } from '../auth/device-session.entity.js';
import { endSessions } from '../auth/device-sessions.js';
import { publishSecurityEvent } from '../auth/security-events.js';
import { User } from '../users/user.entity.js';
import type { Listener, Offence } from './rip-meter.js';

export const RIP_SUSPECTED = 'stream.rip_suspected';
export const RIP_LOCK_MESSAGE =
  'Your account has been locked because it fetched audio much faster than it can be played. Contact support to unlock it.';

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

/** Offences counted towards what a repeat does, and whether this one does it. */
interface Repeats {
  user: User;
  earlier: number;
  /** Set for an API key's offences: the key a repeat revokes. */
  key: ApiKey | null;
  repeatActs: boolean;
}

/**
 * A device session's offences count for its account, since the last unlock; a key's are its own
 * (keyRepeats). The row lock queues offences of one account, so the one reaching the limit is
 * counted once.
 */
async function accountRepeats(tx: EntityManager, deps: AppDeps, userId: string): Promise<Repeats | null> {
  const { lockOffences, lockHours } = deps.ripMeter.settings;
  const user = await tx.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!user) return null;
  const since = await countsSince(tx, user, lockHours);
  const earlier = await tx.count(AuditEntry, {
    user,
    action: RIP_SUSPECTED,
    createdAt: { $gte: since },
    deviceSessionId: { $ne: null },
  });
  return { user, earlier, key: null, repeatActs: earlier + 1 >= lockOffences && !user.isLocked && !isAdmin(user) };
}

/**
 * An API key's offences count for the key alone, within the lock hours: a script's doings do not
 * lock out the person whose rights it borrows, nor do that person's count against the key.
 */
async function keyRepeats(tx: EntityManager, deps: AppDeps, keyId: string): Promise<Repeats | null> {
  const { lockOffences, lockHours } = deps.ripMeter.settings;
  const key = await tx.findOne(ApiKey, { id: keyId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const user = key && (await tx.findOne(User, { id: key.user.id }));
  if (!key || !user) return null;
  const earlier = await tx.count(AuditEntry, {
    user,
    action: RIP_SUSPECTED,
    createdAt: { $gte: new Date(Date.now() - lockHours * 3600_000) },
    details: { apiKeyId: key.id },
  });
  return { user, earlier, key, repeatActs: earlier + 1 >= lockOffences && !key.revokedAt && !isAdmin(user) };
}

/**
 * Writes the audit entry of an offence and, when it is the `lockOffences`-th within `lockHours`,
 * acts: a device session's account is locked as the device policy does (isLocked, its sessions
 * ended with a reason, a forced logout pushed to them); an API key is revoked. Then tells
 * administrators and every replica's meter.
 */
export async function recordOffence(
  deps: AppDeps,
  em: EntityManager,
  meta: RequestMeta,
  offence: Offence,
): Promise<void> {
  const { throttleSeconds } = deps.ripMeter.settings;
  const { credential } = offence;
  const outcome = await em.transactional(async (tx) => {
    const repeats =
      credential.kind === 'apiKey'
        ? await keyRepeats(tx, deps, credential.id)
        : await accountRepeats(tx, deps, offence.userId);
    if (!repeats) return null;
    const { user, earlier, key } = repeats;
    const locks = key === null && repeats.repeatActs;
    const revokes = key !== null && repeats.repeatActs;
    const ctx = { em: tx, deps, meta, caller: null };
    const { rule, fileId, chapterId, addresses, coverage, elapsedSeconds, keys, leadSeconds } = offence;
    const entry = recordAudit(
      ctx,
      {
        action: RIP_SUSPECTED,
        user,
        deviceSessionId: credential.kind === 'session' ? credential.id : null,
        details: {
          rule,
          fileId,
          chapterId,
          addresses,
          coverage,
          elapsedSeconds,
          keys,
          leadSeconds,
          servedSeconds: Math.round(offence.servedSeconds),
          speed: Math.round(offence.speed * 10) / 10,
          windowSeconds: offence.windowSeconds,
          offences: earlier + 1,
          accountLocked: locks,
          ...(key ? { apiKeyId: key.id, apiKeyName: key.name, apiKeyRevoked: revokes } : {}),
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
    if (revokes) {
      key.revokedAt = new Date();
      recordAudit(
        ctx,
        { action: 'api_key.revoked_rip', user, details: { apiKeyId: key.id, name: key.name, offences: earlier + 1 } },
        tx,
      );
    }
    await tx.flush();
    return { user, entry, ended, locks, revokes };
  });
  if (!outcome) return;
  const { user, entry, ended, locks, revokes } = outcome;
  const alert: RipAlertPayload = {
    id: String(entry.id),
    userId: user.id,
    email: user.email,
    credential,
    rule: offence.rule,
    fileId: offence.fileId,
    speed: offence.speed,
    windowSeconds: offence.windowSeconds,
    addresses: offence.addresses,
    accountLocked: locks,
    apiKeyRevoked: revokes,
    throttledUntil: new Date(entry.createdAt.getTime() + throttleSeconds * 1000).toISOString(),
    at: entry.createdAt.toISOString(),
  };
  deps.pubSub.publish('RIP_SUSPECTED', alert);
  if (locks) {
    publishSecurityEvent(deps.pubSub, user.id, 'FORCED_LOGOUT', { sessionIds: ended, message: RIP_LOCK_MESSAGE });
    publishApiKeysChanged(deps.pubSub, user.id);
  }
  // Its open subscriptions close; its open byte responses end at their next re-check.
  if (revokes) publishApiKeysChanged(deps.pubSub, user.id, credential.id);
}
