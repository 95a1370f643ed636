import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { User } from '../users/user.entity.js';
import { lockAfter } from './rate-limiter.js';

/**
 * Whose run of wrong passwords a sign-in attempt counts in, and which lock it obeys (OWASP's
 * device-cookie lockout): a device that proves it has signed in to the account before
 * (known-device.ts) has a run and lock of its own (knownDeviceLocks); every other device shares the
 * account's run (users.failed_login_count, lock_until). So a guesser, who cannot make the proof,
 * locks only the unknown devices and never the account's owner on their own device. Emails with
 * no account are counted and locked as an account's unknown devices are (phantomLocks).
 */
export interface LoginLockout {
  /** Throws RATE_LIMITED while this attempt's run is locked. */
  assertOpen(): Promise<void>;
  /** Counts a wrong password; resolves true when this one locked the run. */
  fail(): Promise<boolean>;
  /**
   * On the right password, under the account's row lock: throws RATE_LIMITED when guesses beside
   * this one locked the run meanwhile, else ends the run and resolves to the wrong passwords the
   * account saw since its last sign-in (shown to the user as a warning).
   */
  succeed(locked: User): Promise<number>;
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

/**
 * The lockout of a sign-in attempt at `email` from `deviceId`; `knownDevice` says whether the
 * attempt proves the device signed in to the account `found` before (isKnownDevice).
 */
export async function loginLockout(
  ctx: Ctx,
  found: User | null,
  email: string,
  deviceId: string,
  knownDevice: boolean,
): Promise<LoginLockout> {
  const { phantomLocks, knownDeviceLocks } = ctx.deps;
  if (!found) {
    const run = await phantomLocks.run(email);
    return {
      assertOpen: async () => {
        const until = await run.lockedUntil();
        if (until) throw temporarilyLocked(until);
      },
      fail: () => run.fail(),
      succeed: async () => 0,
    };
  }
  const endAccountRun = (locked: User) => Object.assign(locked, { failedLoginCount: 0, lockUntil: null });
  if (knownDevice) {
    const run = await knownDeviceLocks.run(found.id, deviceId);
    return {
      assertOpen: async () => {
        const until = await run.lockedUntil();
        if (until) throw temporarilyLocked(until);
      },
      fail: () => run.fail(),
      succeed: async (locked) => {
        const prior = locked.failedLoginCount + (await run.failures());
        await run.clear();
        // A lock the guessers earned stays on them until it runs out.
        if (!isFuture(locked.lockUntil)) endAccountRun(locked);
        return prior;
      },
    };
  }
  return {
    assertOpen: async () => {
      if (isFuture(found.lockUntil)) throw temporarilyLocked(found.lockUntil);
    },
    fail: () => countAccountFailure(ctx.em, found.id),
    succeed: async (locked) => {
      if (isFuture(locked.lockUntil)) throw temporarilyLocked(locked.lockUntil);
      const prior = locked.failedLoginCount;
      endAccountRun(locked);
      return prior;
    },
  };
}
