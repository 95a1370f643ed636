import type { AppConfig } from '../../config.js';

/** Wrong passwords in a row that lock sign-in for an account (or an email without one) a while. */
export const MAX_FAILED_LOGINS = 5;
export const TEMPORARY_LOCK_MS = 15 * 60_000;
/** Own email changes allowed per account per hour. */
const EMAIL_CHANGES_PER_HOUR = 5;

/** The sign-in and profile limits an app keeps in its process's memory (AppDeps). */
export function authLimits(config: Pick<AppConfig, 'loginRateLimitPerMinute'>) {
  return {
    loginLimiter: new RateLimiter(config.loginRateLimitPerMinute, 60_000),
    emailChangeLimiter: new RateLimiter(EMAIL_CHANGES_PER_HOUR, 3600_000),
    phantomLocks: new PhantomLocks(MAX_FAILED_LOGINS, TEMPORARY_LOCK_MS),
  };
}

/** A fixed-window counter per key, in process memory; enough to blunt password guessing per IP. */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts a hit; false when the key is over its limit for the current window. */
  hit(key: string, now = Date.now()): boolean {
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.hits.size > 50_000) this.sweep(now);
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      return true;
    }
    entry.count += 1;
    return entry.count <= this.limit;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

/**
 * The temporary sign-in lock, kept in memory for emails that have no account: wrong passwords are
 * counted and lock exactly as an account's are (in its row), so the answers to a run of guesses
 * do not tell whether an email has an account. Per process, like RateLimiter.
 */
export class PhantomLocks {
  private readonly entries = new Map<string, { failures: number; lockUntil: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly lockMs: number,
  ) {}

  /** When sign-in for `key` is locked until, if it is now. */
  lockedUntil(key: string, now = Date.now()): Date | null {
    const until = this.entries.get(key)?.lockUntil ?? 0;
    return until > now ? new Date(until) : null;
  }

  /** Counts a wrong password; the one that reaches the limit locks, and the count starts again. */
  fail(key: string, now = Date.now()): void {
    const entry = this.entries.get(key) ?? { failures: 0, lockUntil: 0 };
    this.entries.delete(key);
    entry.failures += 1;
    if (entry.failures >= this.maxFailures) Object.assign(entry, { failures: 0, lockUntil: now + this.lockMs });
    this.entries.set(key, entry);
    if (this.entries.size > 50_000) this.trim(now);
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
