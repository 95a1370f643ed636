import type { AppConfig } from '../../config.js';

/** Wrong passwords in a row that lock sign-in for an account (or an email without one) a while. */
export const MAX_FAILED_LOGINS = 5;
export const TEMPORARY_LOCK_MS = 15 * 60_000;
/** Each further lock of a run lasts twice the one before, up to 64 times the first (16 hours). */
const MAX_LOCK_DOUBLINGS = 6;

/**
 * How long the wrong password that brings a run to `failures` locks sign-in (null: it does not):
 * every MAX_FAILED_LOGINS-th locks, each lock twice as long as the last, so a guesser waiting out
 * the locks gets five guesses in 15 minutes, five more in the next 30, and so on.
 */
export function lockAfter(failures: number): number | null {
  if (failures <= 0 || failures % MAX_FAILED_LOGINS !== 0) return null;
  return TEMPORARY_LOCK_MS * 2 ** Math.min(failures / MAX_FAILED_LOGINS - 1, MAX_LOCK_DOUBLINGS);
}
/** Own email changes allowed per account per hour. */
const EMAIL_CHANGES_PER_HOUR = 5;

/** The sign-in and profile limits an app keeps in its process's memory (AppDeps). */
export function authLimits(config: Pick<AppConfig, 'loginRateLimitPerMinute'>) {
  return {
    loginLimiter: new RateLimiter(config.loginRateLimitPerMinute, 60_000),
    emailChangeLimiter: new RateLimiter(EMAIL_CHANGES_PER_HOUR, 3600_000),
    phantomLocks: new FailureLocks(),
    knownDeviceLocks: new FailureLocks(),
  };
}

/** Where a key stands in its window, for RateLimit-* headers. */
export interface RateLimitState {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window starts anew. */
  resetSeconds: number;
}

/**
 * A fixed-window counter per key, in process memory; enough to blunt password guessing per IP.
 * Every key has the limit given at construction, unless a hit names its own (each API key's).
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts a hit; false when the key is over its limit for the current window. */
  hit(key: string, now = Date.now()): boolean {
    return this.count(key, this.limit, now).allowed;
  }

  /** Counts a hit against `limit`, and tells where the key's window stands. */
  count(key: string, limit = this.limit, now = Date.now()): RateLimitState {
    let entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.hits.size > 50_000) this.sweep(now);
      entry = { count: 0, resetAt: now + this.windowMs };
      this.hits.set(key, entry);
    }
    entry.count += 1;
    return {
      allowed: entry.count <= limit,
      remaining: Math.max(0, limit - entry.count),
      resetSeconds: Math.ceil((entry.resetAt - now) / 1000),
    };
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

/**
 * Runs of wrong passwords and the locks they earn (lockAfter), kept in memory per key, for what has
 * no row to count in: emails without an account (counted and locked exactly as an account is, so
 * the answers to a run of guesses do not tell whether an email has an account) and an account's
 * known devices (each its own run). Per process, like RateLimiter.
 */
export class FailureLocks {
  private readonly entries = new Map<string, { failures: number; lockUntil: number }>();

  /** When sign-in for `key` is locked until, if it is now. */
  lockedUntil(key: string, now = Date.now()): Date | null {
    const until = this.entries.get(key)?.lockUntil ?? 0;
    return until > now ? new Date(until) : null;
  }

  /** Counts a wrong password; resolves true when this one locked. */
  fail(key: string, now = Date.now()): boolean {
    const entry = this.entries.get(key) ?? { failures: 0, lockUntil: 0 };
    this.entries.delete(key);
    entry.failures += 1;
    const lockMs = lockAfter(entry.failures);
    if (lockMs !== null) entry.lockUntil = now + lockMs;
    this.entries.set(key, entry);
    if (this.entries.size > 50_000) this.trim(now);
    return lockMs !== null;
  }

  /** Wrong passwords since the last success, or 0. */
  failures(key: string): number {
    return this.entries.get(key)?.failures ?? 0;
  }

  /** A success ends the run. */
  clear(key: string): void {
    this.entries.delete(key);
  }

  /** Ends the runs (and locks) of every key that matches. */
  clearWhere(matches: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (matches(key)) this.entries.delete(key);
  }

  /** Drops unlocked entries, then, if still too many, the least recently failed. */
  private trim(now: number): void {
    for (const [key, entry] of this.entries) if (entry.lockUntil <= now) this.entries.delete(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= 40_000) break;
      this.entries.delete(key);
    }
  }
}
