import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApiKeyCaller } from './api-key-caller.js';
import { AppError } from '../../errors.js';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import { User } from '../users/user.entity.js';
import { ApiKey } from './api-key.entity.js';

const PREFIX = 'pal_';
/** pal_<key id, 32 hex digits>_<secret, 32 random bytes in base64url>. */
const tokenPattern = /^pal_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
/** How stale last-used may get before a request writes it again, unless the address changed. */
const USE_RESOLUTION_MS = 60_000;

export function isApiKeyToken(token: string | null): token is string {
  return token !== null && token.startsWith(PREFIX);
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new key's token (shown once) and the hash kept of it. */
export function newApiKeySecret(keyId: string): { token: string; secretHash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${PREFIX}${keyId.replaceAll('-', '')}_${secret}`, secretHash: hashSecret(secret) };
}

/** The part of a key shown in lists, so an administrator can tell keys apart: pal_ and 8 digits. */
export function apiKeyPrefix(keyId: string): string {
  return `${PREFIX}${keyId.replaceAll('-', '').slice(0, 8)}`;
}

function keyIdOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const invalidKey = () => new AppError('UNAUTHENTICATED', 'Invalid API key');

/** An api_keys row as PostgreSQL's to_jsonb gives it. */
interface KeyRecord {
  id: string;
  name: string;
  secret_hash: string;
  scopes: ApiKey['scopes'];
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
  rate_limit_per_minute: number;
}
type KeyRow = { key: KeyRecord; user: EntityData<User> };

/** The key and its user in one statement; null when no key has that id. */
async function findKeyWithUser(em: EntityManager, keyId: string): Promise<{ key: KeyRecord; user: User } | null> {
  const rows = await em.getConnection().execute<KeyRow[]>(
    `select to_jsonb(k) as key, to_jsonb(u) - 'password_hash' as user
       from api_keys k join users u on u.id = k.user_id where k.id = ?`,
    [keyId],
    'all',
    em.getTransactionContext(),
  );
  return rows.length ? { key: rows[0].key, user: em.map(User, rows[0].user) } : null;
}

/** Why a key found by id does not hold right now, if it does not. */
function refusal(key: KeyRecord, user: User, now = Date.now()): AppError | null {
  if (key.revoked_at) return new AppError('UNAUTHENTICATED', 'This API key has been revoked');
  if (key.expires_at && new Date(key.expires_at).getTime() <= now) {
    return new AppError('UNAUTHENTICATED', 'This API key has expired');
  }
  if (user.isLocked) return new AppError('UNAUTHENTICATED', 'Account is locked');
  return null;
}

function callerOf(key: KeyRecord, user: User): ApiKeyCaller {
  return {
    user,
    session: null,
    apiKey: {
      id: key.id,
      name: key.name,
      scopes: key.scopes,
      expiresAt: key.expires_at ? new Date(key.expires_at) : null,
      rateLimitPerMinute: key.rate_limit_per_minute,
    },
  };
}

/**
 * Turns a `pal_` token into the caller it acts for, checking on every request that the key is
 * neither revoked nor expired and its user unlocked (a deleted user's keys are gone with them).
 * Keys are not device sessions: no device id, no device count, no account lock.
 */
export async function authenticateApiKey(
  em: EntityManager,
  token: string,
  address: string | null,
): Promise<ApiKeyCaller> {
  const match = tokenPattern.exec(token);
  if (!match) throw invalidKey();
  const found = await findKeyWithUser(em, keyIdOf(match[1]));
  const given = Buffer.from(hashSecret(match[2]), 'hex');
  // Compared in constant time; an unknown id is compared against itself so it takes as long.
  const stored = found ? Buffer.from(found.key.secret_hash, 'hex') : given;
  if (!timingSafeEqual(given, stored) || !found) throw invalidKey();
  const refused = refusal(found.key, found.user);
  if (refused) throw refused;
  await noteUse(em, found.key, found.user, address);
  return callerOf(found.key, found.user);
}

/**
 * Last-used time and address, written at most once a minute per key (one statement), and an audit
 * entry when the key is used from an address it was not last used from.
 */
async function noteUse(em: EntityManager, key: KeyRecord, user: User, address: string | null): Promise<void> {
  const lastUsed = key.last_used_at ? new Date(key.last_used_at).getTime() : 0;
  const newAddress = address !== (key.last_used_ip ?? null);
  if (!newAddress && Date.now() - lastUsed <= USE_RESOLUTION_MS) return;
  await em.nativeUpdate(ApiKey, { id: key.id }, { lastUsedAt: new Date(), lastUsedIp: address });
  if (newAddress) {
    await em.insert(AuditEntry, {
      user: user.id,
      actorEmail: user.email,
      action: 'api_key.new_address',
      ipAddress: address,
      details: { apiKeyId: key.id, name: key.name, previousAddress: key.last_used_ip },
      createdAt: new Date(),
    });
  }
}

/** The key caller as of now, for a subscription that outlives its first check: null once it no longer holds. */
export async function recheckApiKeyCaller(em: EntityManager, caller: ApiKeyCaller): Promise<ApiKeyCaller | null> {
  const found = await findKeyWithUser(em, caller.apiKey.id);
  if (!found || refusal(found.key, found.user)) return null;
  return callerOf(found.key, found.user);
}
