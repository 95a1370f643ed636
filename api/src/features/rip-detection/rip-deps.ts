import type { SharedServices } from '../../feature.js';
import { MemoryLedgerStore, RedisLedgerStore } from './ledger-store.js';
import { RipMeter } from './rip-meter.js';
import { ripSettingsFrom } from './rip-settings.js';

/** The app's rip meter, its ledgers in Redis when the app has it, so replicas meter an account together. */
export function ripDeps({ config, redis }: SharedServices) {
  const settings = ripSettingsFrom(config.env);
  return {
    /** What each device session has been served, against real time (rip-meter.ts). */
    ripMeter: new RipMeter(
      settings,
      redis ? new RedisLedgerStore(settings, redis, `${config.redisKeyPrefix}:rip:`) : new MemoryLedgerStore(settings),
    ),
  };
}

declare module '../../context.js' {
  interface AppDeps extends ReturnType<typeof ripDeps> {}
}
