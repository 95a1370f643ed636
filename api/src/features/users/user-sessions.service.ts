import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import type { Connection, ConnectionInput } from '../../paging.js';
import { parseId } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { requireAdmin } from '../../caller-policy.js';
import { activeSessionConnection, activeSessions } from '../auth/device-list.js';
import { DeviceSession } from '../auth/device-session.entity.js';
import { forgetAccountLocks } from '../auth/account-unlocked.js';
import { publishSecurityEvent } from '../auth/security-events.js';
import { User } from './user.entity.js';

async function findUser(ctx: Ctx, userId: string): Promise<User> {
  const user = await ctx.em.findOne(User, { id: parseId(userId, 'userId') });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}

/** An administrator's view of a user's active device sessions, most recent first. */
export async function listUserSessions(ctx: Ctx, userId: string): Promise<DeviceSession[]> {
  requireAdmin(ctx);
  const user = await findUser(ctx, userId);
  return activeSessions(ctx.em, user.id);
}

/** The same as a cursor connection, for sync. */
export async function userSessionConnection(
  ctx: Ctx,
  userId: string,
  page: ConnectionInput,
): Promise<Connection<DeviceSession>> {
  requireAdmin(ctx);
  const user = await findUser(ctx, userId);
  return activeSessionConnection(ctx.em, user.id, page);
}

export async function terminateUserSession(ctx: Ctx, userId: string, sessionId: string): Promise<boolean> {
  requireAdmin(ctx);
  const user = await findUser(ctx, userId);
  const session = await ctx.em.findOne(DeviceSession, { id: parseId(sessionId, 'sessionId'), user, isActive: true });
  if (!session) throw new AppError('NOT_FOUND', 'Session not found');
  Object.assign(session, { isActive: false, endedAt: new Date(), endReason: 'terminated_by_admin' });
  recordAudit(ctx, { action: 'session.terminated', user, details: { deviceSessionId: session.id } });
  await ctx.em.flush();
  publishSecurityEvent(ctx.deps.pubSub, user.id, 'SESSION_TERMINATED', { sessionIds: [session.id] });
  return true;
}

/** Lifts the policy lock and the temporary locks: the account's and those of its known devices. */
export async function unlockUser(ctx: Ctx, userId: string): Promise<User> {
  requireAdmin(ctx);
  const user = await findUser(ctx, userId);
  user.isLocked = false;
  user.lockUntil = null;
  user.failedLoginCount = 0;
  recordAudit(ctx, { action: 'account.unlocked', user });
  await ctx.em.flush();
  await forgetAccountLocks(ctx.deps, user.id);
  return user;
}
