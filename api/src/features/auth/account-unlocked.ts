import type { AppDeps } from '../../context.js';
import type { AppPubSub } from '../../event-bus.js';
import type { Logger } from '../../logger.js';
import { forgetKnownDeviceLocks } from './login-lockout.js';

/** What an unlock clears from a process's memory: the known devices' sign-in locks, the rip meter's state. */
function forgetInMemory(deps: Pick<AppDeps, 'knownDeviceLocks' | 'ripMeter'>, userId: string): void {
  forgetKnownDeviceLocks(deps.knownDeviceLocks, userId);
  deps.ripMeter.forgetUser(userId);
}

/**
 * An administrator lifted the account's locks: the ones kept in memory go too, on this replica at
 * once (the next sign-in may come before any event) and on the others through the event bus.
 */
export function forgetAccountLocks(
  deps: Pick<AppDeps, 'knownDeviceLocks' | 'ripMeter' | 'pubSub'>,
  userId: string,
): void {
  forgetInMemory(deps, userId);
  deps.pubSub.publish('ACCOUNT_UNLOCKED', { userId });
}

/** Applies unlocks made on any replica for as long as the bus delivers. */
export function followAccountUnlocks(
  bus: AppPubSub,
  deps: Pick<AppDeps, 'knownDeviceLocks' | 'ripMeter'>,
  logger: Logger,
): void {
  void (async () => {
    for await (const { userId } of bus.subscribe('ACCOUNT_UNLOCKED')) forgetInMemory(deps, userId);
  })().catch((err: unknown) => logger.error('auth.unlock_listener_failed', { error: String(err) }));
}
