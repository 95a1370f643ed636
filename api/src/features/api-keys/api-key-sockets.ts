import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../../context.js';
import type { ApiKeyCaller } from './api-key-caller.js';
import { isAdmin } from '../../caller-policy.js';
import { recheckApiKeyCaller } from './api-key-auth.js';

/** setTimeout's longest delay; a later expiry is re-checked then, and waited for again. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Closes a WebSocket opened with an API key as soon as the key stops holding: when it is revoked,
 * when its user is locked, demoted or deleted (API_KEYS_CHANGED, on every replica), or when it
 * expires. Resolves nothing; returns the function that stops watching (call it when the socket closes).
 */
export function closeWhenApiKeyEnds(
  deps: AppDeps,
  fork: () => EntityManager,
  caller: ApiKeyCaller,
  close: () => void,
): () => void {
  const events = deps.pubSub.subscribe('API_KEYS_CHANGED', caller.user.id);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    void events.return?.();
  };
  const recheck = async () => {
    if (stopped) return;
    const current = await recheckApiKeyCaller(fork(), caller);
    // A demoted administrator's key keeps its user's lesser rights, but not what it subscribed to as one.
    if (!current || (isAdmin(caller.user) && !isAdmin(current.user))) {
      stop();
      close();
    } else {
      scheduleExpiry(current.apiKey.expiresAt);
    }
  };
  const failed = (err: unknown) => deps.logger.error('api_keys.socket_recheck_failed', { error: String(err) });
  const scheduleExpiry = (expiresAt: Date | null) => {
    clearTimeout(timer);
    if (expiresAt)
      timer = setTimeout(
        () => void recheck().catch(failed),
        Math.min(MAX_TIMER_MS, Math.max(0, expiresAt.getTime() - Date.now())),
      );
  };
  scheduleExpiry(caller.apiKey.expiresAt);
  void (async () => {
    for await (const event of events) {
      if (event.keyId === null || event.keyId === caller.apiKey.id) await recheck();
    }
  })().catch(failed);
  return stop;
}
