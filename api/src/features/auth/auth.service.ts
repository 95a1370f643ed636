import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { hashPassword } from './password-hash.js';
import { User, UserRole } from '../users/user.entity.js';
import { requireCaller, requireDeviceCaller } from '../../caller-policy.js';
import { registerSchema, updateDetailsSchema, type RegisterInput, type UpdateDetailsInput } from './auth.schemas.js';
import { endSessions, openSession } from './device-sessions.js';
import { approvalRequired, type LoginResult } from './login.service.js';
import { publishSecurityEvent } from './security-events.js';
import { signAccessToken } from './tokens.js';

export { hashPassword } from './password-hash.js';

export async function register(ctx: Ctx, rawInput: RegisterInput): Promise<LoginResult> {
  const input = parseInput(registerSchema, rawInput);
  if (!(await ctx.deps.signInLimits.allowsRegistration(ctx.meta.ip))) {
    throw new AppError('RATE_LIMITED', 'Too many attempts. Please try again later.');
  }
  const em = ctx.em;
  if (await em.count(User, { email: input.email })) {
    throw new AppError('CONFLICT', 'An account with this email already exists');
  }
  // As at sign-in, the single-device policy is shown and accepted before the device session opens;
  // until then nothing is created, so a declined registration leaves no account behind.
  if (!input.deviceApproved) return approvalRequired();
  const passwordHash = await hashPassword(input.password);
  const user = em.create(User, { name: input.name, email: input.email, passwordHash, role: UserRole.user });
  const auditCtx = { ...ctx, meta: { ...ctx.meta, deviceId: input.deviceData.deviceId } };
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
  return {
    success: true,
    message: 'Registration successful',
    requiresDeviceApproval: false,
    token,
    user,
    deviceSession: session,
    warnings: [],
  };
}

export async function logout(ctx: Ctx): Promise<boolean> {
  const caller = requireDeviceCaller(ctx);
  endSessions([caller.session], 'logout');
  for (const takeBack of ctx.deps.onSignOut) takeBack(ctx);
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
    if (!(await ctx.deps.emailChangeLimiter.hit(user.id))) {
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
