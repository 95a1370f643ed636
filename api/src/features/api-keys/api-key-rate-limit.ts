import type { Response } from 'express';
import type { ApiKeyCredential } from '../../context.js';
import { AppError } from '../../errors.js';

const WINDOW_MS = 60_000;

/**
 * Requests per key per minute, each key with its own limit, counted in a fixed window in this
 * process's memory like the sign-in limits (replicas count for themselves).
 */
export class ApiKeyRateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  /** Counts a request of the key; what is left of its window, for the RateLimit-* headers. */
  hit(keyId: string, limit: number, now = Date.now()): { allowed: boolean; remaining: number; resetSeconds: number } {
    let window = this.windows.get(keyId);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 10_000) this.sweep(now);
      window = { count: 0, resetAt: now + WINDOW_MS };
      this.windows.set(keyId, window);
    }
    window.count += 1;
    return {
      allowed: window.count <= limit,
      remaining: Math.max(0, limit - window.count),
      resetSeconds: Math.ceil((window.resetAt - now) / 1000),
    };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * Counts a request made with an API key and says so in the IETF draft's RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset headers; over the limit, RATE_LIMITED with Retry-After.
 */
export function limitApiKeyRequest(limiter: ApiKeyRateLimiter, key: ApiKeyCredential, res: Response): void {
  const state = limiter.hit(key.id, key.rateLimitPerMinute);
  res.setHeader('RateLimit-Limit', String(key.rateLimitPerMinute));
  res.setHeader('RateLimit-Remaining', String(state.remaining));
  res.setHeader('RateLimit-Reset', String(state.resetSeconds));
  if (!state.allowed) {
    res.setHeader('Retry-After', String(state.resetSeconds));
    throw new AppError('RATE_LIMITED', 'This API key made too many requests. Please try again later.');
  }
}
