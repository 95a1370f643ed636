import type { ApiKeyCredential } from '../../context.js';
import { AppError } from '../../errors.js';
import { RateLimiter, type RateLimitState } from '../auth/rate-limiter.js';

/** A key's own limit applies to each hit; this one only sizes a fresh limiter. */
const DEFAULT_PER_MINUTE = 600;

/**
 * Requests per API key per minute, counted in this process's memory like the sign-in limits
 * (replicas count for themselves): HTTP requests and WebSocket connections and subscriptions alike.
 */
export function apiKeyLimits() {
  return { apiKeyLimiter: new RateLimiter(DEFAULT_PER_MINUTE, 60_000) };
}

/** Counts a use of the key: RATE_LIMITED over its limit, with where its window stands either way. */
export function countApiKeyUse(
  limiter: RateLimiter,
  key: ApiKeyCredential,
): { state: RateLimitState; refused: AppError | null } {
  const state = limiter.count(key.id, key.rateLimitPerMinute);
  const refused = state.allowed
    ? null
    : new AppError('RATE_LIMITED', 'This API key made too many requests. Please try again later.', {
        retryAfterSeconds: state.resetSeconds,
      });
  return { state, refused };
}

/** Where a request's limit headers go: a response (node's or Express's), or a byte route's exchange. */
export interface HeaderTarget {
  setHeader(name: string, value: string): unknown;
}

/**
 * Counts a request made with an API key and says so in the IETF draft's RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset headers; over the limit, RATE_LIMITED with Retry-After.
 */
export function limitApiKeyRequest(limiter: RateLimiter, key: ApiKeyCredential, res: HeaderTarget): void {
  const { state, refused } = countApiKeyUse(limiter, key);
  res.setHeader('RateLimit-Limit', String(key.rateLimitPerMinute));
  res.setHeader('RateLimit-Remaining', String(state.remaining));
  res.setHeader('RateLimit-Reset', String(state.resetSeconds));
  if (refused) {
    res.setHeader('Retry-After', String(state.resetSeconds));
    throw refused;
  }
}
