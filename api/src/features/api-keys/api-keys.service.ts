import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import type { AppPubSub } from '../../event-bus.js';
import { parseId, parseInput } from '../../validation.js';
import { recordAudit } from '../audit/audit.service.js';
import { isAdmin, requireAdmin, requireDeviceCaller } from '../../caller-policy.js';
import { User } from '../users/user.entity.js';
import { apiKeyPrefix, newApiKeySecret } from './api-key-auth.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeyScope, scopeInfo } from './api-key-scopes.js';
import { createApiKeySchema } from './api-keys.schemas.js';
import { ApiKeyStatus, type ApiKeyView } from './api-keys.types.js';

/** An API key (or, keyId null, every key of the user) may no longer hold: its sockets re-check it. */
export interface ApiKeyEventPayload {
  keyId: string | null;
}

declare module '../../event-bus.js' {
  interface AppEvents {
    API_KEYS_CHANGED: [userId: string, payload: ApiKeyEventPayload];
  }
}

function statusOf(key: ApiKey, now = Date.now()): ApiKeyStatus {
  if (key.revokedAt) return ApiKeyStatus.revoked;
  if (key.expiresAt && key.expiresAt.getTime() <= now) return ApiKeyStatus.expired;
  return ApiKeyStatus.active;
}

export function apiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: apiKeyPrefix(key.id),
    scopes: key.scopes,
    userId: key.user.id,
    userEmail: key.user.email,
    status: statusOf(key),
    rateLimitPerMinute: key.rateLimitPerMinute,
    createdAt: key.createdAt,
    expiresAt: key.expiresAt ?? null,
    revokedAt: key.revokedAt ?? null,
    lastUsedAt: key.lastUsedAt ?? null,
    lastUsedIp: key.lastUsedIp ?? null,
  };
}

export interface ApiKeyScopeView {
  scope: ApiKeyScope;
  name: string;
  description: string;
  adminOnly: boolean;
  /** Always false: the deprecated field of a time when the stream scope was reserved. */
  reserved: false;
}

/** Administrators: every scope and what it takes, for the create form. */
export function listApiKeyScopes(ctx: Ctx): ApiKeyScopeView[] {
  requireAdmin(ctx);
  return Object.values(ApiKeyScope).map((scope) => ({
    scope,
    name: scope,
    description: scopeInfo[scope].allows,
    adminOnly: scopeInfo[scope].adminOnly,
    reserved: false,
  }));
}

/** Administrators: every API key, newest first (revoked and expired ones too, for the record). */
export async function listApiKeys(ctx: Ctx): Promise<ApiKeyView[]> {
  requireAdmin(ctx);
  const keys = await ctx.em.find(ApiKey, {}, { populate: ['user'], orderBy: { createdAt: 'desc', id: 'asc' } });
  return keys.map(apiKeyView);
}

/**
 * Administrators, from a signed-in device: a key for a user, with scopes that user's role can use.
 * Resolves to the key and its secret, which is not kept and never shown again.
 */
export async function createApiKey(ctx: Ctx, rawInput: unknown): Promise<{ apiKey: ApiKeyView; secret: string }> {
  requireAdmin(ctx);
  requireDeviceCaller(ctx);
  const input = parseInput(createApiKeySchema, rawInput);
  const user = await ctx.em.findOne(User, { id: parseId(input.userId, 'userId') });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  const beyondRole = isAdmin(user) ? [] : input.scopes.filter((s) => scopeInfo[s].adminOnly);
  if (beyondRole.length > 0) {
    throw new AppError('BAD_USER_INPUT', `Only an administrator's key can have ${beyondRole.join(', ')}`, {
      field: 'scopes',
    });
  }
  const key = ctx.em.create(ApiKey, {
    user,
    name: input.name,
    secretHash: '',
    scopes: input.scopes,
    expiresAt: input.expiresAt ?? null,
    createdBy: ctx.caller?.user,
    ...(input.rateLimitPerMinute ? { rateLimitPerMinute: input.rateLimitPerMinute } : {}),
  });
  const { token, secretHash } = newApiKeySecret(key.id);
  key.secretHash = secretHash;
  recordAudit(ctx, {
    action: 'api_key.created',
    user,
    details: { apiKeyId: key.id, name: key.name, scopes: key.scopes, expiresAt: key.expiresAt },
  });
  await ctx.em.flush();
  return { apiKey: apiKeyView(key), secret: token };
}

/** Tells the sockets of a user's keys (one key, or all with keyId null) to check their key again. */
export function publishApiKeysChanged(pubSub: AppPubSub, userId: string, keyId: string | null = null): void {
  pubSub.publish('API_KEYS_CHANGED', userId, { keyId });
}

/** Administrators: the key stops working at its next request; its open subscriptions are closed. */
export async function revokeApiKey(ctx: Ctx, keyId: string): Promise<ApiKeyView> {
  requireAdmin(ctx);
  const key = await ctx.em.findOne(ApiKey, { id: parseId(keyId, 'id') }, { populate: ['user'] });
  if (!key) throw new AppError('NOT_FOUND', 'API key not found');
  if (!key.revokedAt) {
    key.revokedAt = new Date();
    recordAudit(ctx, { action: 'api_key.revoked', user: key.user, details: { apiKeyId: key.id, name: key.name } });
    await ctx.em.flush();
  }
  publishApiKeysChanged(ctx.deps.pubSub, key.user.id, key.id);
  return apiKeyView(key);
}
