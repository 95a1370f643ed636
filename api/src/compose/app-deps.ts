import type { AppConfig } from '../config.js';
import type { AppDeps } from '../context.js';
import { createEventBus, type EventBus } from '../event-bus.js';
import type { SharedServices } from '../feature.js';
import type { Logger } from '../logger.js';
import { createRateLimitStore } from '../rate-limits.js';
import { features, type FeatureDeps } from './features.js';

/** What services share for the app's lifetime, and the event bus behind it (closed on stop). */
export async function createAppDeps(config: AppConfig, logger: Logger): Promise<{ deps: AppDeps; events: EventBus }> {
  const [bus, counters] = await Promise.all([
    createEventBus(config.redisUrl),
    createRateLimitStore(config.redisUrl, config.redisKeyPrefix),
  ]);
  const close = async () => {
    await Promise.all([bus.close(), counters.close()]);
  };
  const services: SharedServices = { config, logger, pubSub: bus.pubSub, redis: bus.redis, counters };
  let deps: AppDeps;
  try {
    deps = assemble(
      { config, pubSub: bus.pubSub, logger, onSignOut: features.flatMap((f) => (f.signOut ? [f.signOut] : [])) },
      services,
    );
  } catch (err) {
    // A feature's settings may be refused (ConfigError): the connections made for it close.
    await close();
    throw err;
  }
  for (const feature of features) feature.events?.(deps);
  return { deps, events: { pubSub: deps.pubSub, redis: bus.redis, close } };
}

/** The kernel's deps with every feature's part, made in the features' order. */
function assemble(
  kernel: Pick<AppDeps, 'config' | 'pubSub' | 'logger' | 'onSignOut'>,
  services: SharedServices,
): AppDeps {
  const deps: typeof kernel & FeatureDeps = Object.assign(
    kernel,
    ...features.map((feature) => feature.deps?.(services)),
  );
  return deps;
}
