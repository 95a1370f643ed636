import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { User } from '../users/user.entity.js';
import { isKnownDevice } from './known-device.js';
import { lockAfter, type FailureLocks } from './rate-limiter.js';

/**
 * Whose run of wrong passwords a sign-in attempt counts in, and which lock it obeys (OWASP's
 * device-cookie lockout): a device that proves it has signed in to the account before
 * (known-device.ts) has a run and lock of its own, in memory; every other device shares the
 * account's run (users.failed_login_count, lock_until). So a guesser, who cannot make the proof,
 * locks only the unknown devices and never the account's owner on their own device. Emails with
 * no account are counted and locked as an account's unknown devices are (phantomLocks).
 */
export interface LoginLockout {
  /** Throws RATE_LIMITED while this attempt's run is locked. */
  assertOpen(): void;
  /** Counts a wrong password; resolves true when this one locked the run. */
  fail(): Promise<boolean>;
  /**
   * On the right password, under the account's row lock: throws RATE_LIMITED when guesses beside
   * this one locked the run meanwhile, else ends the run and resolves to the wrong passwords the
   * account saw since its last sign-in (shown to the user as a warning).
   */
  succeed(locked: User): number;
}

export function temporarilyLocked(lockUntil: Date): AppError {
  const minutes = Math.ceil((lockUntil.getTime() - Date.now()) / 60_000);
  return new AppError('RATE_LIMITED', `Too many failed login attempts. Try again in ${minutes} minute(s).`);
}

const isFuture = (date: Date | null | undefined): date is Date => !!date && date.getTime() > Date.now();

/**
 * Counts an unknown device's wrong password on the account's row, in one statement so guesses sent
 * in parallel all count; every MAX_FAILED_LOGINS-th locks for longer (lockAfter). The lock is set
 * only where it lengthens one, so a parallel burst's shorter lock written last cannot cut it short.
 */
async function countAccountFailure(em: EntityManager, userId: string): Promise<boolean> {
  const [row] = await em
    .getConnection()
    .execute<{ failed_login_count: number }[]>(
      'update users set failed_login_count = failed_login_count + 1 where id = ? returning failed_login_count',
      [userId],
    );
  const lockMs = row ? lockAfter(row.failed_login_count) : null;
  if (lockMs === null) return false;
  const until = new Date(Date.now() + lockMs);
  await em.nativeUpdate(
    User,
    { id: userId, $or: [{ lockUntil: null }, { lockUntil: { $lt: until } }] },
    { lockUntil: until },
  );
  return true;
}

/** The key of an account's known device in knownDeviceLocks. */
const knownDeviceKey = (userId: string, deviceId: string) => `${userId}\n${deviceId}`;

/** Ends every run and lock of the account's known devices (an administrator unlocked the account). */
export function forgetKnownDeviceLocks(locks: FailureLocks, userId: string): void {
  locks.clearWhere((key) => key.startsWith(knownDeviceKey(userId, '')));
}

export function loginLockout(ctx: Ctx, found: User | null, email: string, deviceId: string): LoginLockout {
  const { phantomLocks, knownDeviceLocks } = ctx.deps;
  if (!found) {
    return {
      assertOpen: () => {
        const until = phantomLocks.lockedUntil(email);
        if (until) throw temporarilyLocked(until);
      },
      fail: () => Promise.resolve(phantomLocks.fail(email)),
      succeed: () => 0,
    };
  }
  const endAccountRun = (locked: User) => Object.assign(locked, { failedLoginCount: 0, lockUntil: null });
  if (isKnownDevice(ctx, found.id, deviceId)) {
    const key = knownDeviceKey(found.id, deviceId);
    return {
      assertOpen: () => {
        const until = knownDeviceLocks.lockedUntil(key);
        if (until) throw temporarilyLocked(until);
      },
      fail: () => Promise.resolve(knownDeviceLocks.fail(key)),
      succeed: (locked) => {
        const prior = locked.failedLoginCount + knownDeviceLocks.failures(key);
        knownDeviceLocks.clear(key);
        // A lock the guessers earned stays on them until it runs out.
        if (!isFuture(locked.lockUntil)) endAccountRun(locked);
        return prior;
      },
    };
  }
  return {
    assertOpen: () => {
      if (isFuture(found.lockUntil)) throw temporarilyLocked(found.lockUntil);
    },
    fail: () => countAccountFailure(ctx.em, found.id),
    succeed: (locked) => {
      if (isFuture(locked.lockUntil)) throw temporarilyLocked(locked.lockUntil);
      const prior = locked.failedLoginCount;
      endAccountRun(locked);
      return prior;
    },
  };
}
