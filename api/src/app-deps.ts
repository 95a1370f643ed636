import type { AppConfig } from './config.js';
import type { AppDeps } from './context.js';
import { accessFactsCaches } from './features/playback/access-facts-cache.js';
import { apiKeyLimits } from './features/api-keys/api-key-rate-limit.js';
import { followAccountUnlocks } from './features/auth/account-unlocked.js';
import { authLimits } from './features/auth/rate-limiter.js';
import { followRipAlerts } from './features/rip-detection/rip-alerts.js';
import { MemoryLedgerStore, RedisLedgerStore } from './features/rip-detection/ledger-store.js';
import { RipMeter } from './features/rip-detection/rip-meter.js';
import { progressLimits } from './features/progress/progress.service.js';
import { hashThread } from './features/uploads/hash-thread.js';
import { createEventBus, type EventBus } from './event-bus.js';
import { createRateLimitStore } from './rate-limits.js';
import type { Logger } from './logger.js';

/** What services share for the app's lifetime, and the event bus behind it (closed on stop). */
export async function createAppDeps(config: AppConfig, logger: Logger): Promise<{ deps: AppDeps; events: EventBus }> {
  const [bus, counters] = await Promise.all([
    createEventBus(config.redisUrl),
    createRateLimitStore(config.redisUrl, config.redisKeyPrefix),
  ]);
  const { caches, pubSub } = accessFactsCaches(bus.pubSub, logger);
  hashThread.onFailure = (err) => logger.error('uploads.hash_thread_failed', { error: String(err) });
  const deps: AppDeps = {
    config,
    pubSub,
    logger,
    accessFacts: caches,
    ...authLimits(config, counters),
    ...progressLimits(),
    ...apiKeyLimits(counters),
    ripMeter: new RipMeter(
      config.ripDetection,
      bus.redis
        ? new RedisLedgerStore(config.ripDetection, bus.redis, `${config.redisKeyPrefix}:rip:`)
        : new MemoryLedgerStore(config.ripDetection),
    ),
  };
  followAccountUnlocks(bus.pubSub, deps, logger);
  followRipAlerts(bus.pubSub, deps.ripMeter, logger);
  const close = async () => {
    await Promise.all([bus.close(), counters.close()]);
  };
  return { deps, events: { pubSub, redis: bus.redis, close } };
}
