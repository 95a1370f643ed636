import { LockMode } from '@mikro-orm/core';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { User } from '../users/user.entity.js';
import { isAdmin } from '../../caller-policy.js';
import { DeviceWarningKind } from './auth.types.js';
import { loginSchema, type LoginInput } from './auth.schemas.js';
import { DeviceSession } from './device-session.entity.js';
import { describeDevice, endSessions, openSession } from './device-sessions.js';
import { isKnownDevice } from './known-device.js';
import { loginLockout } from './login-lockout.js';
import { hashPassword, needsRehash, verifyPassword } from './password-hash.js';
import { publishSecurityEvent, securityMessages } from './security-events.js';
import { signAccessToken } from './tokens.js';

export const POLICY_MESSAGE =
  'This application only allows login from one device at a time. Logging in from another device later will permanently lock your account.';
export const LOCK_MESSAGE = securityMessages.DEVICE_LOCKED;
export const LOCKED_ACCOUNT_MESSAGE = 'Your account is locked. Please contact support to unlock it.';
const INVALID_CREDENTIALS = 'Invalid email or password';

export interface DeviceWarning {
  id: string;
  type: DeviceWarningKind;
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

/** The answer that asks the client to show the policy and repeat with deviceApproved: true. */
export function approvalRequired(): LoginResult {
  return {
    success: false,
    message: POLICY_MESSAGE,
    requiresDeviceApproval: true,
    token: null,
    user: null,
    deviceSession: null,
    warnings: [],
  };
}

let dummyHash: Promise<string> | null = null;

function warning(type: DeviceWarningKind, message: string, deviceName: string | null = null): DeviceWarning {
  return { id: `${type}-${Date.now()}`, type, message, deviceName, timestamp: new Date() };
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

export async function login(ctx: Ctx, rawInput: LoginInput): Promise<LoginResult> {
  const input = parseInput(loginSchema, rawInput);
  const { deviceId } = input.deviceData;
  const em = ctx.em;
  const found = await em.findOne(User, { email: input.email }, { populate: ['passwordHash'] });
  // Looked up before the limits: a device proving it signed in to the account before counts on its own.
  const knownDevice = found !== null && isKnownDevice(ctx, found.id, deviceId);
  const limits = ctx.deps.signInLimits;
  const own = knownDevice ? { userId: found.id, deviceId } : null;
  if (!(await limits.allowsSignIn(ctx.meta.ip, input.email, own))) {
    throw new AppError('RATE_LIMITED', 'Too many login attempts. Please try again later.');
  }
  const auditCtx = { ...ctx, meta: { ...ctx.meta, deviceId } };

  const lockout = await loginLockout(ctx, found, input.email, deviceId, knownDevice);
  await lockout.assertOpen();
  if (!(await checkPassword(found, input.password))) {
    if ((await lockout.fail()) && found) recordAudit(auditCtx, { action: 'login.temporary_lock', user: found });
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
    const priorFailures = await lockout.succeed(locked);
    if (rehashed) locked.passwordHash = rehashed;
    if (locked.isLocked) {
      recordAudit(auditCtx, { action: 'login.rejected_locked', user: locked }, tx);
      return { kind: 'locked' as const };
    }
    const active = await tx.find(DeviceSession, { user: locked, isActive: true });
    const current = active.find((s) => s.deviceId === input.deviceData.deviceId);
    const warnings: DeviceWarning[] = [];
    if (priorFailures > 0) {
      warnings.push(
        warning(
          DeviceWarningKind.suspicious_activity,
          `${priorFailures} failed login attempt(s) since your last sign-in.`,
        ),
      );
    }
    if (!current) {
      const withinLimit = active.length < ctx.deps.config.maxDevices;
      if (!withinLimit && !isAdmin(locked)) {
        locked.isLocked = true;
        endSessions(active, 'account_locked');
        recordAudit(
          auditCtx,
          { action: 'account.locked_multi_device', user: locked, details: { endedSessions: active.length } },
          tx,
        );
        return { kind: 'lockedNow' as const, userId: locked.id, sessionIds: active.map((s) => s.id) };
      }
      // A device proving it signed in to this account before (known-device.ts) is no new device:
      // signing in again there needs no approval of the policy and raises no new-device alert.
      if (!knownDevice) {
        if (!input.deviceApproved) {
          recordAudit(auditCtx, { action: 'login.approval_required', user: locked }, tx);
          return { kind: 'approval' as const };
        }
        warnings.push(
          warning(
            DeviceWarningKind.new_device,
            `New device login: ${describeDevice(input.deviceData)}`,
            describeDevice(input.deviceData),
          ),
        );
      }
      if (!withinLimit) {
        warnings.push(
          warning(
            DeviceWarningKind.max_devices_reached,
            `This administrator account is now signed in on ${active.length + 1} devices.`,
          ),
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
        warnings: [warning(DeviceWarningKind.device_locked, LOCK_MESSAGE, describeDevice(input.deviceData))],
      });
    case 'approval':
      return approvalRequired();
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
