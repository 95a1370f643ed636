import type { ApiKeyCredential } from './api-key-caller.js';
import { AppError } from '../../errors.js';
import type { HeaderTarget } from '../../http/request-context.js';
import { RateLimiter, type RateLimitState, type RateLimitStore } from '../../rate-limits.js';

/** A key's own limit applies to each hit; this one only sizes a fresh limiter. */
const DEFAULT_PER_MINUTE = 600;

/**
 * Requests per API key per minute, counted in the app's store like the sign-in limits (in Redis when
 * REDIS_URL is set, so replicas count together): HTTP requests and WebSocket connections and
 * subscriptions alike.
 */
export function apiKeyLimits(store: RateLimitStore) {
  return {
    /** Requests per API key per minute, each key with its own limit. */
    apiKeyLimiter: new RateLimiter(store.counter('api-key', DEFAULT_PER_MINUTE, 60)),
  };
}

declare module '../../context.js' {
  interface AppDeps extends ReturnType<typeof apiKeyLimits> {}
}

/** Counts a use of the key: RATE_LIMITED over its limit, with where its window stands either way. */
export async function countApiKeyUse(
  limiter: RateLimiter,
  key: ApiKeyCredential,
): Promise<{ state: RateLimitState; refused: AppError | null }> {
  const state = await limiter.count(key.id, key.rateLimitPerMinute);
  const refused = state.allowed
    ? null
    : new AppError('RATE_LIMITED', 'This API key made too many requests. Please try again later.', {
        retryAfterSeconds: state.resetSeconds,
      });
  return { state, refused };
}

/**
 * Counts a request made with an API key and says so in the IETF draft's RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset headers; over the limit, RATE_LIMITED with Retry-After.
 */
export async function limitApiKeyRequest(
  limiter: RateLimiter,
  key: ApiKeyCredential,
  res: HeaderTarget,
): Promise<void> {
  const { state, refused } = await countApiKeyUse(limiter, key);
  res.setHeader('RateLimit-Limit', String(key.rateLimitPerMinute));
  res.setHeader('RateLimit-Remaining', String(state.remaining));
  res.setHeader('RateLimit-Reset', String(state.resetSeconds));
  if (refused) {
    res.setHeader('Retry-After', String(state.resetSeconds));
    throw refused;
  }
}
