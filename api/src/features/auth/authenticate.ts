import type { EntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config.js';
import type { Caller } from '../../context.js';
import { AppError } from '../../errors.js';
import { User } from '../users/user.entity.js';
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
 * The device session and its user in one plain statement, mapped into managed entities: this runs
 * on every authenticated request, and the ORM's query building for the same join cost several
 * times the query itself (profiled). The password hash stays unread, as the entity's lazy property.
 */
async function findSessionWithUser(em: EntityManager, sessionId: string, userId: string): Promise<DeviceSession | null> {
  const rows = await em.getConnection().execute<{ session: EntityData<DeviceSession>; user: EntityData<User> }[]>(
    `select to_jsonb(ds) as session, to_jsonb(u) - 'password_hash' as user
       from device_sessions ds
       join users u on u.id = ds.user_id
      where ds.id = ? and ds.user_id = ?`,
    [sessionId, userId],
    'all',
    // Inside em's transaction when it has one (a caller re-checked under row locks).
    em.getTransactionContext(),
  );
  if (rows.length === 0) return null;
  const user = em.map(User, rows[0].user);
  const session = em.map(DeviceSession, rows[0].session);
  session.user = user;
  return session;
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
  const session = await findSessionWithUser(em, claims.sessionId, claims.userId);
  // A token signed for an earlier session on this device (since ended, then reopened) does not hold.
  if (!session || !session.isActive || session.createdAt.getTime() !== claims.sessionStart) {
    throw new AppError('UNAUTHENTICATED', 'Session expired or ended. Please log in again.');
  }
  if (session.user.isLocked) throw new AppError('UNAUTHENTICATED', 'Account is locked');
  if (!deviceId || deviceId !== session.deviceId) {
    throw new AppError('UNAUTHENTICATED', 'This token does not belong to this device');
  }
  session.lastActivity = (await noteActivity(em, session.id, session.lastActivity)) ?? session.lastActivity;
  return { user: session.user, session };
}

/**
 * A caller as of now, for a subscription that outlives the check made when it started: null once
 * the session has ended (or was reopened) or the account is locked.
 */
export async function recheckCaller(em: EntityManager, caller: Caller): Promise<Caller | null> {
  const session = await findSessionWithUser(em, caller.session.id, caller.user.id);
  if (!session?.isActive || session.user.isLocked) return null;
  if (session.createdAt.getTime() !== caller.session.createdAt.getTime()) return null;
  return { user: session.user, session };
}

/**
 * Brings a device session's lastActivity up to date, writing at most once a minute per session;
 * resolves to the new time when it wrote. Every authenticated request counts, and so does every
 * byte request made with the session's stream credentials.
 */
export async function noteActivity(em: EntityManager, sessionId: string, lastActivity: Date): Promise<Date | null> {
  const now = Date.now();
  if (now - lastActivity.getTime() <= ACTIVITY_RESOLUTION_MS) return null;
  const at = new Date(now);
  await em.nativeUpdate(DeviceSession, { id: sessionId }, { lastActivity: at });
  return at;
}
