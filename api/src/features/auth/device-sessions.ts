import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../context.js';
import type { User } from '../users/user.entity.js';
import type { DeviceData } from './auth.schemas.js';
import { DeviceSession } from './device-session.entity.js';
import { rememberDevice } from './known-device.js';

export function describeDevice(data: DeviceData): string {
  if (data.deviceName) return data.deviceName;
  if (data.browser && data.os) return `${data.browser} on ${data.os}`;
  return 'Unknown device';
}

function deviceTypeOf(data: DeviceData): string {
  const type = (data.deviceType ?? '').toLowerCase();
  return type === 'mobile' || type === 'tablet' ? type : 'other';
}

/**
 * Opens (or reopens) the device session for this device after a successful sign-in or
 * registration, and marks the device as known to the account (known-device.ts).
 */
export async function openSession(ctx: Ctx, em: EntityManager, user: User, data: DeviceData): Promise<DeviceSession> {
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
  rememberDevice(ctx, user.id, data.deviceId);
  return session;
}

export function endSessions(sessions: DeviceSession[], reason: string): void {
  const now = new Date();
  for (const s of sessions) Object.assign(s, { isActive: false, endedAt: now, endReason: reason });
}
