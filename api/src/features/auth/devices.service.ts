import type { Caller, Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import type { Connection, ConnectionInput } from '../../paging.js';
import { uuidPattern } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { requireCaller, requireDeviceCaller } from '../../caller-policy.js';
import { activeSessionConnection, activeSessions } from './device-list.js';
import { DeviceSession } from './device-session.entity.js';
import { endSessions } from './device-sessions.js';
import { publishSecurityEvent } from './security-events.js';

/** The caller's active devices, the most recently used first. */
export async function myDevices(ctx: Ctx): Promise<DeviceSession[]> {
  const { user } = requireCaller(ctx);
  return activeSessions(ctx.em, user.id);
}

export async function myDeviceConnection(ctx: Ctx, page: ConnectionInput): Promise<Connection<DeviceSession>> {
  const { user } = requireCaller(ctx);
  return activeSessionConnection(ctx.em, user.id, page);
}

export async function deactivateDevice(ctx: Ctx, deviceId: string): Promise<boolean> {
  const caller = requireDeviceCaller(ctx);
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
  const caller = requireDeviceCaller(ctx);
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
  return caller?.session?.id === session.id;
}
