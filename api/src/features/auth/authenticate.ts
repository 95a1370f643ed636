import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config.js';
import type { Caller } from '../../context.js';
import { AppError } from '../../errors.js';
import { DeviceSession } from './device-session.entity.js';
import { verifyAccessToken } from './tokens.js';

/** How stale lastActivity may get before a request refreshes it (saves a write per request). */
const ACTIVITY_RESOLUTION_MS = 60_000;

export function bearerToken(authorization: string | undefined | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  return match ? match[1] : null;
}

/**
 * Turns a bearer token and device id into a caller, re-checking on every request that the device
 * session is active, the account unlocked and the device the one the session was made for.
 * No token: null (anonymous). A bad token: UNAUTHENTICATED.
 */
export async function authenticate(
  em: EntityManager,
  config: AppConfig,
  token: string | null,
  deviceId: string | null,
): Promise<Caller | null> {
  if (!token) return null;
  const claims = await verifyAccessToken(config.secret, token);
  const session = await em.findOne(
    DeviceSession,
    { id: claims.sessionId, user: claims.userId },
    { populate: ['user'] },
  );
  if (!session || !session.isActive) {
    throw new AppError('UNAUTHENTICATED', 'Session expired or ended. Please log in again.');
  }
  if (session.user.isLocked) throw new AppError('UNAUTHENTICATED', 'Account is locked');
  if (!deviceId || deviceId !== session.deviceId) {
    throw new AppError('UNAUTHENTICATED', 'This token does not belong to this device');
  }
  const now = Date.now();
  if (now - session.lastActivity.getTime() > ACTIVITY_RESOLUTION_MS) {
    await em.nativeUpdate(DeviceSession, { id: session.id }, { lastActivity: new Date(now) });
    session.lastActivity = new Date(now);
  }
  return { user: session.user, session };
}
