import type { Caller, Ctx } from './context.js';
import { AppError } from './errors.js';

export const ADMIN_REQUIRED = 'Administrator access required';

export function isAdmin(user: { role: string }): boolean {
  return user.role === 'admin';
}

export function requireCaller(ctx: Ctx): Caller {
  if (!ctx.caller) throw new AppError('UNAUTHENTICATED', 'Invalid or missing authentication token');
  return ctx.caller;
}

export function requireAdmin(ctx: Ctx): Caller {
  const caller = requireCaller(ctx);
  if (!isAdmin(caller.user)) throw new AppError('FORBIDDEN', ADMIN_REQUIRED);
  return caller;
}

/** A caller on a person's device session, not an API key. */
export type DeviceCaller = Extract<Caller, { session: object }>;

/** What only a person's device session may do (sign out, manage devices, play): API keys are refused. */
export function requireDeviceCaller(ctx: Ctx): DeviceCaller {
  const caller = requireCaller(ctx);
  if (!caller.session) throw new AppError('FORBIDDEN', 'API keys cannot do this: sign in on a device');
  return caller;
}
