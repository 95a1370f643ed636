import type { AppDeps } from '../../context.js';
import type { AppPubSub } from '../../event-bus.js';
import type { Logger } from '../../logger.js';

/** An administrator unlocked the account: every replica forgets what its rip meter keeps of it. */
export interface AccountUnlockedPayload {
  userId: string;
}

declare module '../../event-bus.js' {
  interface AppEvents {
    ACCOUNT_UNLOCKED: [payload: AccountUnlockedPayload];
  }
}

/**
 * An administrator lifted the account's locks: its known devices' sign-in locks go too, from the
 * store every replica reads (or from this process, the only one, without Redis), and the rip
 * meter's state of the account, kept per process, goes on this replica at once (the next request
 * may come before any event) and on the others through the event bus.
 */
export async function forgetAccountLocks(
  deps: Pick<AppDeps, 'knownDeviceLocks' | 'ripMeter' | 'pubSub'>,
  userId: string,
): Promise<void> {
  await deps.knownDeviceLocks.forget(userId);
  deps.ripMeter.forgetUser(userId);
  deps.pubSub.publish('ACCOUNT_UNLOCKED', { userId });
}

/** Applies unlocks made on any replica for as long as the bus delivers. */
export function followAccountUnlocks(bus: AppPubSub, deps: Pick<AppDeps, 'ripMeter'>, logger: Logger): void {
  void (async () => {
    for await (const { userId } of bus.subscribe('ACCOUNT_UNLOCKED')) deps.ripMeter.forgetUser(userId);
  })().catch((err: unknown) => logger.error('auth.unlock_listener_failed', { error: String(err) }));
}
