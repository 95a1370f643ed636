import type { EntityClass, EntityData, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config.js';
import type { Caller } from '../../context.js';
import type { SessionCaller } from './caller.js';
import { AppError } from '../../errors.js';
import { authenticateApiKey, isApiKeyToken, recheckApiKeyCaller } from '../api-keys/api-key-auth.js';
import { User } from '../users/user.entity.js';
import { ADMIN_REQUIRED, isAdmin } from '../../caller-policy.js';
import { DeviceSession } from './device-session.entity.js';
import { verifyAccessToken } from './tokens.js';

/** How stale lastActivity may get before a request refreshes it (saves a write per request). */
const ACTIVITY_RESOLUTION_MS = 60_000;

export function bearerToken(authorization: string | undefined | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  return match ? match[1] : null;
}

/** What the "session still valid" rule reads of a device session. */
export interface SessionState {
  isActive: boolean;
  userId: string;
  /** When the session began; a reopened session on the same device begins anew. */
  startedAt: Date;
}

export type SessionRefusal = 'ended' | 'locked';

/**
 * THE rule for a credential issued to a device session, in one place (bearer tokens, stream
 * tokens, signed and chapter URLs, live subscriptions): the session is still active and the
 * account's, the credential was issued in this session and not in an earlier one of the same
 * device (`sessionStart`, null when it names none), and the account is unlocked. Null: it holds.
 */
export function sessionRefusal(
  session: SessionState,
  user: { id: string; isLocked: boolean },
  sessionStart: number | null,
): SessionRefusal | null {
  if (!session.isActive || session.userId !== user.id || session.startedAt.getTime() !== sessionStart) return 'ended';
  return user.isLocked ? 'locked' : null;
}

/** What the session rule reads of a device session row. */
export const sessionStateOf = (session: DeviceSession): SessionState => ({
  isActive: session.isActive,
  userId: session.user.id,
  startedAt: session.createdAt,
});

/** A row of another table, by primary key, read in the same statement as the caller. */
export interface Companion<T extends object> {
  entity: EntityClass<T>;
  id: string;
}

type SessionRow<T> = { session: EntityData<DeviceSession>; user: EntityData<User>; companion?: EntityData<T> | null };

/**
 * The device session and its user in one plain statement, mapped into managed entities, with the
 * companion row if one is asked for (null when none has its id): this runs on every authenticated
 * request, and the ORM's query building for the same join cost several times the query itself
 * (profiled). The password hash stays unread, as the entity's lazy property.
 */
async function findSessionWithUser<T extends object>(
  em: EntityManager,
  sessionId: string,
  userId: string,
  companion: Companion<T> | null = null,
): Promise<{ session: DeviceSession | null; companion: T | null }> {
  const meta = companion && em.getMetadata(companion.entity);
  const quote = (name: string) => em.getPlatform().quoteIdentifier(name);
  const rows = await em.getConnection().execute<SessionRow<T>[]>(
    `select to_jsonb(ds) as session, to_jsonb(u) - 'password_hash' as user${meta ? ', to_jsonb(c) as companion' : ''}
       from device_sessions ds
       join users u on u.id = ds.user_id
       ${meta ? `left join ${quote(meta.tableName)} c on c.${quote(meta.getPrimaryProps()[0].fieldNames[0])} = ?` : ''}
      where ds.id = ? and ds.user_id = ?`,
    companion ? [companion.id, sessionId, userId] : [sessionId, userId],
    'all',
    // Inside em's transaction when it has one (a caller re-checked under row locks).
    em.getTransactionContext(),
  );
  if (rows.length === 0) return { session: null, companion: null };
  const [row] = rows;
  const user = em.map(User, row.user);
  const session = em.map(DeviceSession, row.session);
  session.user = user;
  return { session, companion: companion && row.companion ? em.map(companion.entity, row.companion) : null };
}

/** The credential a request presents: a bearer token, and the device it says it is (X-Device-ID). */
export interface Credential {
  token: string | null;
  deviceId: string | null;
}

/**
 * Turns a bearer token and device id into a caller, re-checking on every request that the device
 * session is active, the account unlocked and the device the one the session was made for, with a
 * row the request needs besides its caller read in the same statement (the upload each chunk of it
 * is written to): null when none has that id, or when there is no token. No token: null
 * (anonymous). A bad token: UNAUTHENTICATED. A `pal_` token is an API key, used from `address`.
 * Requests come here through authenticateRequest (authenticate-request.ts).
 */
export async function callerOf<T extends object>(
  em: EntityManager,
  config: AppConfig,
  { token, deviceId }: Credential,
  address: string | null,
  companion: Companion<T> | null = null,
): Promise<{ caller: Caller | null; companion: T | null }> {
  if (!token) return { caller: null, companion: null };
  if (isApiKeyToken(token)) {
    const caller = await authenticateApiKey(em, token, address);
    return { caller, companion: companion && (await em.findOne(companion.entity, companion.id as FilterQuery<T>)) };
  }
  const claims = await verifyAccessToken(config.secret, token);
  const found = await findSessionWithUser(em, claims.sessionId, claims.userId, companion);
  const { session } = found;
  const refusal = session ? sessionRefusal(sessionStateOf(session), session.user, claims.sessionStart) : 'ended';
  if (!session || refusal) {
    const message = refusal === 'locked' ? 'Account is locked' : 'Session expired or ended. Please log in again.';
    throw new AppError('UNAUTHENTICATED', message);
  }
  if (!deviceId || deviceId !== session.deviceId) {
    throw new AppError('UNAUTHENTICATED', 'This token does not belong to this device');
  }
  session.lastActivity = (await noteActivity(em, session.id, session.lastActivity)) ?? session.lastActivity;
  return { caller: { user: session.user, session, apiKey: null }, companion: found.companion };
}

/**
 * A caller as of now, for a subscription that outlives the check made when it started: null once
 * the session has ended (or was reopened) or the account is locked.
 */
export async function recheckCaller(em: EntityManager, caller: Caller): Promise<Caller | null> {
  if (caller.apiKey) return recheckApiKeyCaller(em, caller);
  return recheckSessionCaller(em, caller);
}

async function recheckSessionCaller(em: EntityManager, caller: SessionCaller): Promise<SessionCaller | null> {
  const { session } = await findSessionWithUser(em, caller.session.id, caller.user.id);
  if (!session || sessionRefusal(sessionStateOf(session), session.user, caller.session.createdAt.getTime()))
    return null;
  return { user: session.user, session, apiKey: null };
}

/**
 * THE "still an administrator" check, for work that outlives the request's own check (an upload
 * that took minutes, a subscription, a change made under row locks): FORBIDDEN unless the caller's
 * session still holds and its account is still an administrator's.
 */
export async function recheckAdmin(em: EntityManager, caller: Caller | null): Promise<Caller> {
  const current = caller && (await recheckCaller(em, caller));
  if (!current || !isAdmin(current.user)) throw new AppError('FORBIDDEN', ADMIN_REQUIRED);
  return current;
}

/**
 * Brings a device session's lastActivity up to date, writing at most once a minute per session;
 * resolves to the new time when it wrote. Every authenticated request counts, and so does every
 * byte request made with the session's stream credentials. `em` may be a getter, so a byte request
 * that writes nothing forks no EntityManager.
 */
export async function noteActivity(
  em: EntityManager | (() => EntityManager),
  sessionId: string,
  lastActivity: Date,
): Promise<Date | null> {
  const now = Date.now();
  if (now - lastActivity.getTime() <= ACTIVITY_RESOLUTION_MS) return null;
  const at = new Date(now);
  await (typeof em === 'function' ? em() : em).nativeUpdate(DeviceSession, { id: sessionId }, { lastActivity: at });
  return at;
}
