import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller, Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseId, parseInput } from '../../validation.js';
import { publishApiKeysChanged } from '../api-keys/api-keys.service.js';
import { forgetAccountLocks } from '../auth/account-unlocked.js';
import { recordAudit } from '../audit/audit.service.js';
import { isAdmin, requireAdmin } from '../../caller-policy.js';
import { hashPassword } from '../auth/auth.service.js';
import { endSessions } from '../auth/device-sessions.js';
import { recheckAdmin } from '../auth/authenticate.js';
import { DeviceSession } from '../auth/device-session.entity.js';
import { publishSecurityEvent } from '../auth/security-events.js';
import { User, UserRole } from './user.entity.js';
import { createUserSchema, updateUserSchema } from './users.schemas.js';

const EMAIL_TAKEN = 'An account with this email already exists';

async function findUser(ctx: Ctx, userId: string): Promise<User> {
  const user = await ctx.em.findOne(User, { id: parseId(userId, 'userId') });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}

async function ensureEmailFree(em: EntityManager, email: string, exceptId?: string): Promise<void> {
  if (await em.count(User, { email, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) {
    throw new AppError('CONFLICT', EMAIL_TAKEN);
  }
}

async function flushUnique(em: EntityManager): Promise<void> {
  await em.flush().catch((err: unknown) => {
    if (err instanceof Error && /unique/i.test(err.message)) throw new AppError('CONFLICT', EMAIL_TAKEN);
    throw err;
  });
}

export async function userCount(ctx: Ctx): Promise<number> {
  requireAdmin(ctx);
  return ctx.em.count(User, {});
}

export async function getUser(ctx: Ctx, userId: string): Promise<User> {
  requireAdmin(ctx);
  return findUser(ctx, userId);
}

export async function createUser(ctx: Ctx, rawInput: unknown): Promise<User> {
  requireAdmin(ctx);
  const input = parseInput(createUserSchema, rawInput);
  await ensureEmailFree(ctx.em, input.email);
  const user = ctx.em.create(User, {
    name: input.name,
    email: input.email,
    role: input.role,
    passwordHash: await hashPassword(input.password),
  });
  recordAudit(ctx, { action: 'user.created', user, details: { role: input.role } });
  await flushUnique(ctx.em);
  return user;
}

/**
 * Locks the caller's and the user's rows (in id order, so two administrators acting on each other
 * queue rather than deadlock) and re-checks the caller under that lock: an administrator locked,
 * demoted or signed out by a change that committed meanwhile changes nothing. The caller thus stays
 * an unlocked administrator until the commit, so there is always one left.
 */
async function lockCallerAndUser(tx: EntityManager, caller: Caller, userId: string): Promise<User> {
  const rows = await tx.find(
    User,
    { id: [caller.user.id, userId] },
    { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true },
  );
  await recheckAdmin(tx, caller);
  const user = rows.find((u) => u.id === userId);
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}

function demotionMessage(devicesKept: number): string {
  const kept =
    devicesKept === 1 ? 'your most recently used device stays' : `your ${devicesKept} most recently used devices stay`;
  return `Your administrator role has been removed. This device has been signed out; ${kept} signed in.`;
}

/** Ends a user's active sessions but the `keep` most recently active; resolves to the ended ids. */
async function endActiveSessions(tx: EntityManager, user: User, reason: string, keep = 0): Promise<string[]> {
  const active = await tx.find(DeviceSession, { user, isActive: true }, { orderBy: { lastActivity: 'desc' } });
  const ended = active.slice(keep);
  endSessions(ended, reason);
  return ended.map((s) => s.id);
}

/**
 * Name, email, role and the policy lock. Locking ends the user's sessions at once; demotion ends all
 * but the ones a user may keep (MAX_DEVICES, the most recently active).
 */
export async function updateUser(ctx: Ctx, userId: string, rawInput: unknown): Promise<User> {
  const caller = requireAdmin(ctx);
  const input = parseInput(updateUserSchema, rawInput);
  const id = parseId(userId, 'userId');
  if (id === caller.user.id && (input.isLocked || (input.role && input.role !== UserRole.admin))) {
    throw new AppError('BAD_USER_INPUT', 'You cannot lock your own account or remove your own administrator role');
  }
  const { user, signedOut, demoted, unlocked } = await ctx.em.transactional(async (tx) => {
    const user = await lockCallerAndUser(tx, caller, id);
    if (input.email && input.email !== user.email) await ensureEmailFree(tx, input.email, user.id);
    const before = { name: user.name, email: user.email, role: user.role, isLocked: user.isLocked };
    const demoted = isAdmin(user) && input.role === UserRole.user;
    if (input.name) user.name = input.name;
    if (input.email) user.email = input.email;
    if (input.role) user.role = input.role;
    let signedOut: { sessionIds: string[]; message: string } | null = null;
    if (input.isLocked === true && !user.isLocked) {
      user.isLocked = true;
      signedOut = {
        sessionIds: await endActiveSessions(tx, user, 'locked_by_admin'),
        message: 'Your account has been locked by an administrator.',
      };
    }
    const unlocked = input.isLocked === false;
    // Unlocking lifts the temporary lock too, as the unlock action does.
    if (unlocked) Object.assign(user, { isLocked: false, lockUntil: null, failedLoginCount: 0 });
    if (demoted && !signedOut) {
      signedOut = {
        sessionIds: await endActiveSessions(tx, user, 'role_changed', ctx.deps.config.maxDevices),
        message: demotionMessage(ctx.deps.config.maxDevices),
      };
    }
    const endedSessions = signedOut?.sessionIds.length ?? 0;
    recordAudit(
      ctx,
      { action: 'user.updated', user, details: { before, ...(endedSessions ? { endedSessions } : {}) } },
      tx,
    );
    await flushUnique(tx);
    return { user, signedOut, demoted, unlocked };
  });
  if (unlocked) await forgetAccountLocks(ctx.deps, user.id);
  if (signedOut?.sessionIds.length) {
    publishSecurityEvent(ctx.deps.pubSub, user.id, 'FORCED_LOGOUT', signedOut);
  }
  // A demoted administrator's kept sessions lose every file they saw only as one.
  if (demoted) ctx.deps.pubSub.publish('ACCESS_CHANGED', { userId: user.id, fileId: null });
  // Locked or demoted: the user's API keys' open subscriptions check their key again.
  if (signedOut) publishApiKeysChanged(ctx.deps.pubSub, user.id);
  return user;
}

/**
 * Deletes a user with their sessions, grants and checkpoints (the database cascades). The audit
 * log keeps the entry with the email. Administrators cannot be deleted.
 */
export async function deleteUser(ctx: Ctx, userId: string): Promise<User> {
  const caller = requireAdmin(ctx);
  const id = parseId(userId, 'userId');
  // Under the same row locks as updateUser: a promotion or a change to the caller committed
  // meanwhile is seen before anything is deleted.
  const user = await ctx.em.transactional(async (tx) => {
    const user = await lockCallerAndUser(tx, caller, id);
    if (isAdmin(user)) throw new AppError('FORBIDDEN', 'Administrators cannot be deleted');
    recordAudit(
      ctx,
      {
        action: 'user.deleted',
        user: null,
        email: user.email,
        details: { deletedUserId: user.id, actorId: caller.user.id },
      },
      tx,
    );
    await tx.nativeDelete(User, { id: user.id });
    return user;
  });
  publishSecurityEvent(ctx.deps.pubSub, user.id, 'FORCED_LOGOUT', { message: 'Your account has been deleted.' });
  publishApiKeysChanged(ctx.deps.pubSub, user.id);
  return user;
}
