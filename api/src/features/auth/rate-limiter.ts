import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AppConfig } from '../../config.js';
import { RateLimiter, type RateLimitStore } from '../../rate-limits.js';

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
/**
 * A run of wrong passwords is forgotten this long after its first (a success ends it sooner): past
 * the end of the first 16-hour lock however slowly the guesses come (the 35th, which earns it,
 * comes 15.75 hours in at the slowest).
 */
const RUN_SECONDS = 48 * 3600;

/** The sign-in and profile limits an app keeps in its store (AppDeps): in Redis when REDIS_URL is set. */
export function authLimits(config: Pick<AppConfig, 'loginRateLimitPerMinute'>, store: RateLimitStore) {
  return {
    /** Sign-in attempts per client address and per account (or per known device); registrations per address. */
    signInLimits: new SignInLimits(store, config.loginRateLimitPerMinute),
    /**
     * Changes of their own email per account: each answer tells whether an address has an account,
     * which sign-in takes care to hide, so a signed-in user may not probe addresses at will.
     */
    emailChangeLimiter: new RateLimiter(store.counter('email-change', EMAIL_CHANGES_PER_HOUR, 3600)),
    /** The temporary sign-in lock for emails without an account, so guesses cannot tell them apart. */
    phantomLocks: new FailureLocks(store, 'phantom'),
    /** Wrong passwords from each account's known devices, per (account, device): a run of their own. */
    knownDeviceLocks: new FailureLocks(store, 'known-device'),
  };
}

declare module '../../context.js' {
  interface AppDeps extends ReturnType<typeof authLimits> {}
}

/**
 * Sign-in attempts per minute: per client address and per account (the email signed in to), so
 * neither many accounts from one address nor one account from many addresses can be guessed at
 * speed. A device that proves it signed in to the account before (known-device.ts) is held to its
 * own count instead, so others' attempts from its address or at its account do not shut it out.
 * Registrations count against the address.
 */
export class SignInLimits {
  private readonly byAddress: RateLimiter;
  private readonly byAccount: RateLimiter;
  private readonly byKnownDevice: RateLimiter;

  constructor(store: RateLimitStore, perMinute: number) {
    this.byAddress = new RateLimiter(store.counter('sign-in-address', perMinute, 60));
    this.byAccount = new RateLimiter(store.counter('sign-in-account', perMinute, 60));
    this.byKnownDevice = new RateLimiter(store.counter('sign-in-known-device', perMinute, 60));
  }

  /** Counts a sign-in attempt; false when it is over a limit. */
  async allowsSignIn(ip: string | null, email: string, knownDevice: { userId: string; deviceId: string } | null) {
    if (knownDevice) return this.byKnownDevice.hit(`${knownDevice.userId}\n${knownDevice.deviceId}`);
    // An address over its limit does not use up the account's.
    return (await this.byAddress.hit(ip ?? 'unknown')) && (await this.byAccount.hit(email));
  }

  /** Counts a registration attempt; false when its address is over the limit. */
  allowsRegistration(ip: string | null): Promise<boolean> {
    return this.byAddress.hit(ip ?? 'unknown');
  }
}

/** One key's run of wrong passwords since its last success, and the lock it has earned. */
export interface FailureRun {
  /** When sign-in is locked until, if it is now. */
  lockedUntil(): Promise<Date | null>;
  /** Counts a wrong password; resolves true when this one locked. */
  fail(): Promise<boolean>;
  /** Wrong passwords in the run, or 0. */
  failures(): Promise<number>;
  /** A success ends the run. */
  clear(): Promise<void>;
}

/**
 * Runs of wrong passwords and the locks they earn (lockAfter), kept in the store per key, for what
 * has no row to count in: emails without an account (counted and locked exactly as an account is,
 * so the answers to a run of guesses do not tell whether an email has an account) and an account's
 * known devices (each its own run). Keys belong to a scope (an account), whose runs can be
 * forgotten together: the scope's generation, counted in the store, is part of every key, so
 * raising it leaves the old runs behind, unread, until they expire.
 */
export class FailureLocks {
  private readonly runs: RateLimiterAbstract;
  private readonly locks: RateLimiterAbstract;
  private readonly generations: RateLimiterAbstract;

  constructor(store: RateLimitStore, name: string) {
    this.runs = store.counter(`${name}-runs`, 1, RUN_SECONDS);
    this.locks = store.counter(`${name}-locks`, 1, RUN_SECONDS);
    this.generations = store.counter(`${name}-generations`, 1, 0);
  }

  /** The run of `id` within `scope`. */
  async run(scope: string, id = ''): Promise<FailureRun> {
    const generation = (await this.generations.get(scope))?.consumedPoints ?? 0;
    const key = `${scope}\n${generation}\n${id}`;
    return {
      lockedUntil: async () => {
        const lock = await this.locks.get(key);
        return lock && lock.msBeforeNext > 0 ? new Date(Date.now() + lock.msBeforeNext) : null;
      },
      fail: async () => {
        const lockMs = lockAfter((await this.runs.penalty(key)).consumedPoints);
        if (lockMs === null) return false;
        // Only where it lengthens the lock: a parallel burst's shorter one, written last, must not cut it short.
        const running = await this.locks.get(key);
        if (!running || running.msBeforeNext < lockMs) await this.locks.block(key, lockMs / 1000);
        return true;
      },
      failures: async () => (await this.runs.get(key))?.consumedPoints ?? 0,
      clear: async () => {
        await Promise.all([this.runs.delete(key), this.locks.delete(key)]);
      },
    };
  }

  /** Ends every run and lock within the scope (an administrator unlocked the account). */
  async forget(scope: string): Promise<void> {
    await this.generations.penalty(scope);
  }
}
