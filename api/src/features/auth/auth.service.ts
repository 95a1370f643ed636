import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller, Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseInput, uuidPattern } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { hashPassword, needsRehash, verifyPassword } from './password-hash.js';
import { MAX_FAILED_LOGINS, TEMPORARY_LOCK_MS } from './rate-limiter.js';
import { User, UserRole } from '../users/user.entity.js';
import { isAdmin, requireCaller } from './auth.policy.js';
import {
  loginSchema,
  registerSchema,
  updateDetailsSchema,
  type DeviceData,
  type LoginInput,
  type RegisterInput,
  type UpdateDetailsInput,
} from './auth.schemas.js';
import { DeviceSession } from './device-session.entity.js';
import { publishSecurityEvent, securityMessages } from './security-events.js';
import { signAccessToken } from './tokens.js';

export const POLICY_MESSAGE =
  'This application only allows login from one device at a time. Logging in from another device later will permanently lock your account.';
export const LOCK_MESSAGE = securityMessages.DEVICE_LOCKED;
export const LOCKED_ACCOUNT_MESSAGE = 'Your account is locked. Please contact support to unlock it.';
const INVALID_CREDENTIALS = 'Invalid email or password';

export type DeviceWarningType = 'new_device' | 'device_locked' | 'suspicious_activity' | 'max_devices_reached';
export interface DeviceWarning {
  id: string;
  type: DeviceWarningType;
  message: string;
  deviceName: string | null;
  timestamp: Date;
}

export interface LoginResult {
  success: boolean;
  message: string;
  requiresDeviceApproval: boolean;
  token: string | null;
  user: User | null;
  deviceSession: DeviceSession | null;
  warnings: DeviceWarning[];
}

export interface AuthPayload {
  token: string;
  user: User;
  deviceSession: DeviceSession;
}

let dummyHash: Promise<string> | null = null;

export { hashPassword } from './password-hash.js';

function warning(type: DeviceWarningType, message: string, deviceName: string | null = null): DeviceWarning {
  return { id: `${type}-${Date.now()}`, type, message, deviceName, timestamp: new Date() };
}

function describeDevice(data: DeviceData): string {
  if (data.deviceName) return data.deviceName;
  if (data.browser && data.os) return `${data.browser} on ${data.os}`;
  return 'Unknown device';
}

function deviceTypeOf(data: DeviceData): string {
  const type = (data.deviceType ?? '').toLowerCase();
  return type === 'mobile' || type === 'tablet' ? type : 'other';
}

/** Opens (or reopens) the device session for this device and signs a token bound to it. */
async function openSession(ctx: Ctx, em: EntityManager, user: User, data: DeviceData): Promise<DeviceSession> {
  const now = new Date();
  let session = await em.findOne(DeviceSession, { user, deviceId: data.deviceId });
  if (!session) {
    session = em.create(DeviceSession, { user, deviceId: data.deviceId, deviceName: describeDevice(data) });
  } else if (!session.isActive) {
    // A new session on a known device: tokens and URLs issued in the one that ended name its start.
    session.createdAt = now;
  }
  Object.assign(session, {
    deviceName: describeDevice(data),
    deviceType: deviceTypeOf(data),
    fingerprint: data.deviceFingerprint ?? null,
    ipAddress: ctx.meta.ip,
    userAgent: ctx.meta.userAgent?.slice(0, 512) ?? null,
    isActive: true,
    lastActivity: now,
    endedAt: null,
    endReason: null,
  });
  em.persist(session);
  return session;
}

async function checkPassword(user: User | null, password: string): Promise<boolean> {
  if (!user) {
    // Spend the same time as a real check so response timing does not reveal which emails exist.
    dummyHash ??= hashPassword('not-a-real-password');
    await verifyPassword(await dummyHash, password);
    return false;
  }
  return verifyPassword(user.passwordHash, password);
}

function temporarilyLocked(lockUntil: Date): AppError {
  const minutes = Math.ceil((lockUntil.getTime() - Date.now()) / 60_000);
  return new AppError('RATE_LIMITED', `Too many failed login attempts. Try again in ${minutes} minute(s).`);
}

/**
 * Counts a wrong password in one statement, so guesses sent in parallel all count; the one that
 * reaches MAX_FAILED_LOGINS locks sign-in for a while. Resolves true when this one locked it.
 */
async function countFailedLogin(em: EntityManager, userId: string): Promise<boolean> {
  const [row] = await em.getConnection().execute<{ locked_now: boolean }[]>(
    `update users set
       failed_login_count = case when failed_login_count + 1 >= ? then 0 else failed_login_count + 1 end,
       lock_until = case when failed_login_count + 1 >= ? then ? else lock_until end
     where id = ?
     returning failed_login_count = 0 as locked_now`,
    [MAX_FAILED_LOGINS, MAX_FAILED_LOGINS, new Date(Date.now() + TEMPORARY_LOCK_MS), userId],
  );
  return row?.locked_now === true;
}

export async function login(ctx: Ctx, rawInput: LoginInput): Promise<LoginResult> {
  const input = parseInput(loginSchema, rawInput);
  if (!ctx.deps.loginLimiter.hit(ctx.meta.ip ?? 'unknown')) {
    throw new AppError('RATE_LIMITED', 'Too many login attempts. Please try again later.');
  }
  const em = ctx.em;
  const found = await em.findOne(User, { email: input.email }, { populate: ['passwordHash'] });
  const auditCtx = { ...ctx, meta: { ...ctx.meta, deviceId: input.deviceData.deviceId } };

  const lockUntil = found ? found.lockUntil : ctx.deps.phantomLocks.lockedUntil(input.email);
  if (lockUntil && lockUntil.getTime() > Date.now()) throw temporarilyLocked(lockUntil);
  if (!(await checkPassword(found, input.password))) {
    if (!found) ctx.deps.phantomLocks.fail(input.email);
    else if (await countFailedLogin(em, found.id)) {
      recordAudit(auditCtx, { action: 'login.temporary_lock', user: found });
    }
    recordAudit(auditCtx, { action: 'login.failed', user: found ?? null, email: input.email });
    await em.flush();
    throw new AppError('UNAUTHENTICATED', INVALID_CREDENTIALS);
  }
  const user = found as User;
  // A hash from older parameters is replaced now that the password is known (hashed before the
  // row lock below, so the lock is never held across an argon2 run).
  const rehashed = needsRehash(user.passwordHash) ? await hashPassword(input.password) : null;

  // The decision and its writes happen under a row lock on the user, so two devices logging in at
  // once cannot both slip under the device limit.
  const outcome = await em.transactional(async (tx) => {
    const locked = await tx.findOneOrFail(User, { id: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    // Guesses running beside this one may have locked sign-in while the password was checked.
    if (locked.lockUntil && locked.lockUntil.getTime() > Date.now()) throw temporarilyLocked(locked.lockUntil);
    const priorFailures = locked.failedLoginCount;
    if (rehashed) locked.passwordHash = rehashed;
    locked.failedLoginCount = 0;
    locked.lockUntil = null;
    if (locked.isLocked) {
      recordAudit(auditCtx, { action: 'login.rejected_locked', user: locked }, tx);
      return { kind: 'locked' as const };
    }
    const active = await tx.find(DeviceSession, { user: locked, isActive: true });
    const current = active.find((s) => s.deviceId === input.deviceData.deviceId);
    const warnings: DeviceWarning[] = [];
    if (priorFailures > 0) {
      warnings.push(
        warning('suspicious_activity', `${priorFailures} failed login attempt(s) since your last sign-in.`),
      );
    }
    if (!current) {
      const withinLimit = active.length < ctx.deps.config.maxDevices;
      if (!withinLimit && !isAdmin(locked)) {
        locked.isLocked = true;
        for (const s of active) Object.assign(s, { isActive: false, endedAt: new Date(), endReason: 'account_locked' });
        recordAudit(
          auditCtx,
          { action: 'account.locked_multi_device', user: locked, details: { endedSessions: active.length } },
          tx,
        );
        return { kind: 'lockedNow' as const, userId: locked.id, sessionIds: active.map((s) => s.id) };
      }
      if (!input.deviceApproved) {
        recordAudit(auditCtx, { action: 'login.approval_required', user: locked }, tx);
        return { kind: 'approval' as const };
      }
      warnings.push(
        warning('new_device', `New device login: ${describeDevice(input.deviceData)}`, describeDevice(input.deviceData)),
      );
      if (!withinLimit) {
        warnings.push(
          warning('max_devices_reached', `This administrator account is now signed in on ${active.length + 1} devices.`),
        );
      }
    }
    const session = await openSession(ctx, tx, locked, input.deviceData);
    recordAudit(auditCtx, { action: 'login.success', user: locked, details: { deviceSessionId: session.id } }, tx);
    return { kind: 'ok' as const, user: locked, session, warnings };
  });

  switch (outcome.kind) {
    case 'locked':
      throw new AppError('ACCOUNT_LOCKED', LOCKED_ACCOUNT_MESSAGE);
    case 'lockedNow':
      publishSecurityEvent(ctx.deps.pubSub, outcome.userId, 'DEVICE_LOCKED', { sessionIds: outcome.sessionIds });
      throw new AppError('ACCOUNT_LOCKED', LOCK_MESSAGE, {
        warnings: [warning('device_locked', LOCK_MESSAGE, describeDevice(input.deviceData))],
      });
    case 'approval':
      return {
        success: false,
        message: POLICY_MESSAGE,
        requiresDeviceApproval: true,
        token: null,
        user: null,
        deviceSession: null,
        warnings: [],
      };
    case 'ok': {
      const token = await signAccessToken(ctx.deps.config.secret, {
        userId: outcome.user.id,
        sessionId: outcome.session.id,
        sessionStart: outcome.session.createdAt.getTime(),
      });
      return {
        success: true,
        message: 'Login successful',
        requiresDeviceApproval: false,
        token,
        user: outcome.user,
        deviceSession: outcome.session,
        warnings: outcome.warnings,
      };
    }
  }
}

export async function register(ctx: Ctx, rawInput: RegisterInput): Promise<AuthPayload> {
  const input = parseInput(registerSchema, rawInput);
  if (!ctx.deps.loginLimiter.hit(ctx.meta.ip ?? 'unknown')) {
    throw new AppError('RATE_LIMITED', 'Too many attempts. Please try again later.');
  }
  const em = ctx.em;
  if (await em.count(User, { email: input.email })) {
    throw new AppError('CONFLICT', 'An account with this email already exists');
  }
  const passwordHash = await hashPassword(input.password);
  const user = em.create(User, { name: input.name, email: input.email, passwordHash, role: UserRole.user });
  const auditCtx = { ...ctx, meta: { ...ctx.meta, deviceId: input.deviceData.deviceId } };
  // Registering from a device is the approval of that first device.
  const session = await openSession(ctx, em, user, input.deviceData);
  recordAudit(auditCtx, { action: 'account.registered', user });
  await em.flush().catch((err: unknown) => {
    if (err instanceof Error && /unique/i.test(err.message)) {
      throw new AppError('CONFLICT', 'An account with this email already exists');
    }
    throw err;
  });
  const token = await signAccessToken(ctx.deps.config.secret, {
    userId: user.id,
    sessionId: session.id,
    sessionStart: session.createdAt.getTime(),
  });
  return { token, user, deviceSession: session };
}

export function endSessions(sessions: DeviceSession[], reason: string): void {
  const now = new Date();
  for (const s of sessions) Object.assign(s, { isActive: false, endedAt: now, endReason: reason });
}

export async function logout(ctx: Ctx): Promise<boolean> {
  const caller = requireCaller(ctx);
  endSessions([caller.session], 'logout');
  recordAudit(ctx, { action: 'logout' });
  await ctx.em.flush();
  publishSecurityEvent(ctx.deps.pubSub, caller.user.id, 'FORCED_LOGOUT', { sessionIds: [caller.session.id] });
  return true;
}

export function me(ctx: Ctx): User {
  return requireCaller(ctx).user;
}

export async function updateMyDetails(ctx: Ctx, rawInput: UpdateDetailsInput): Promise<User> {
  const { user } = requireCaller(ctx);
  const input = parseInput(updateDetailsSchema, rawInput);
  if (input.email !== user.email) {
    if (!ctx.deps.emailChangeLimiter.hit(user.id)) {
      throw new AppError('RATE_LIMITED', 'Too many email changes. Please try again later.');
    }
    if (await ctx.em.count(User, { email: input.email, id: { $ne: user.id } })) {
      throw new AppError('CONFLICT', 'An account with this email already exists');
    }
  }
  const before = { name: user.name, email: user.email };
  user.name = input.name;
  user.email = input.email;
  recordAudit(ctx, { action: 'profile.updated', details: { before } });
  await ctx.em.flush();
  return user;
}

export async function myDevices(ctx: Ctx): Promise<DeviceSession[]> {
  const { user } = requireCaller(ctx);
  return ctx.em.find(DeviceSession, { user, isActive: true }, { orderBy: { lastActivity: 'desc' } });
}

export async function deactivateDevice(ctx: Ctx, deviceId: string): Promise<boolean> {
  const caller = requireCaller(ctx);
  if (typeof deviceId !== 'string' || deviceId.length === 0 || deviceId.length > 128) {
    throw new AppError('BAD_USER_INPUT', 'deviceId is required');
  }
  if (deviceId === caller.session.deviceId || deviceId === caller.session.id) {
    throw new AppError('BAD_USER_INPUT', 'Use Logout to end the session on this device');
  }
  const session = await ctx.em.findOne(DeviceSession, {
    user: caller.user,
    isActive: true,
    $or: [{ deviceId }, ...(uuidPattern.test(deviceId) ? [{ id: deviceId }] : [])],
  });
  if (!session) throw new AppError('NOT_FOUND', 'Device not found');
  endSessions([session], 'deactivated_by_user');
  recordAudit(ctx, { action: 'device.deactivated', details: { deviceSessionId: session.id } });
  await ctx.em.flush();
  publishSecurityEvent(ctx.deps.pubSub, caller.user.id, 'FORCED_LOGOUT', {
    sessionIds: [session.id],
    message: 'This device was signed out from another device.',
  });
  return true;
}

export async function deactivateOtherDevices(ctx: Ctx): Promise<number> {
  const caller = requireCaller(ctx);
  const others = await ctx.em.find(DeviceSession, {
    user: caller.user,
    isActive: true,
    id: { $ne: caller.session.id },
  });
  endSessions(others, 'deactivated_by_user');
  recordAudit(ctx, { action: 'device.deactivated_others', details: { count: others.length } });
  await ctx.em.flush();
  if (others.length) {
    publishSecurityEvent(ctx.deps.pubSub, caller.user.id, 'FORCED_LOGOUT', {
      sessionIds: others.map((s) => s.id),
      message: 'This device was signed out from another device.',
    });
  }
  return others.length;
}

export function isCurrentSession(caller: Caller | null, session: DeviceSession): boolean {
  return caller?.session.id === session.id;
}
