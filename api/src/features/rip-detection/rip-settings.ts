import { z } from 'zod';
import { parseEnv } from '../../config.js';

/** Rip detection's thresholds, read from the environment once (ripSettingsFrom); docs/rip-detection.md has the rules. */
export interface RipSettings {
  /** Allowed multiple of real time: audio served faster than this over a window is an offence. */
  speed: number;
  /** The sliding window that chapter keys and the speed reported with an offence are counted over, in seconds. */
  windowSeconds: number;
  /**
   * Audio an account may be served ahead of `speed` times real time (its lead), in seconds, over
   * all its sessions, API keys and replicas; past it is an offence.
   */
  leadSeconds: number;
  /**
   * Audio a jump (a new place in a file or chapter) takes at full speed and free of the lead, in
   * seconds; after it a response is paced to `speed` times real time from its start.
   */
  readAheadSeconds: number;
  /** Free read-aheads an account may have outstanding: a burst of seeks and chapter skips. */
  freeReadAheads: number;
  /** One free read-ahead comes back every this many seconds. */
  readAheadRefillSeconds: number;
  /** Distinct chapter keys one account may fetch per window. */
  keysPerWindow: number;
  /** Two client addresses taking turns on one device session within this many seconds is an offence. */
  addressWindowSeconds: number;
  /** A flagged account's audio is paced to this multiple of real time. */
  throttleSpeed: number;
  /** How long a flagged account stays throttled, in seconds. */
  throttleSeconds: number;
  /** Offences within lockHours that lock the account (as the device policy does). */
  lockOffences: number;
  lockHours: number;
}

const positive = (name: string) => z.coerce.number().positive(`${name} must be a number above 0`);
const whole = (name: string, min: number) =>
  z.coerce
    .number()
    .int(`${name} must be a whole number of at least ${min}`)
    .min(min, `${name} must be a whole number of at least ${min}`);

/** The environment variables, with their defaults. */
export const ripDetectionEnv = {
  RIP_SPEED: positive('RIP_SPEED').min(1, 'RIP_SPEED must be at least 1').default(4),
  RIP_WINDOW_SECONDS: whole('RIP_WINDOW_SECONDS', 10).default(60),
  RIP_LEAD_SECONDS: whole('RIP_LEAD_SECONDS', 10).default(240),
  RIP_READ_AHEAD_SECONDS: whole('RIP_READ_AHEAD_SECONDS', 10).default(60),
  RIP_FREE_READ_AHEADS: whole('RIP_FREE_READ_AHEADS', 1).default(10),
  RIP_READ_AHEAD_REFILL_SECONDS: whole('RIP_READ_AHEAD_REFILL_SECONDS', 1).default(60),
  RIP_KEYS_PER_WINDOW: whole('RIP_KEYS_PER_WINDOW', 1).default(30),
  RIP_ADDRESS_WINDOW_SECONDS: whole('RIP_ADDRESS_WINDOW_SECONDS', 0).default(60),
  RIP_THROTTLE_SPEED: positive('RIP_THROTTLE_SPEED').default(1.5),
  RIP_THROTTLE_MINUTES: positive('RIP_THROTTLE_MINUTES').default(30),
  RIP_LOCK_OFFENCES: whole('RIP_LOCK_OFFENCES', 1).default(3),
  RIP_LOCK_HOURS: positive('RIP_LOCK_HOURS').default(24),
};

type RipEnv = { [K in keyof typeof ripDetectionEnv]: z.infer<(typeof ripDetectionEnv)[K]> };

export function ripSettings(e: RipEnv): RipSettings {
  return {
    speed: e.RIP_SPEED,
    windowSeconds: e.RIP_WINDOW_SECONDS,
    leadSeconds: e.RIP_LEAD_SECONDS,
    readAheadSeconds: e.RIP_READ_AHEAD_SECONDS,
    freeReadAheads: e.RIP_FREE_READ_AHEADS,
    readAheadRefillSeconds: e.RIP_READ_AHEAD_REFILL_SECONDS,
    keysPerWindow: e.RIP_KEYS_PER_WINDOW,
    addressWindowSeconds: e.RIP_ADDRESS_WINDOW_SECONDS,
    throttleSpeed: e.RIP_THROTTLE_SPEED,
    throttleSeconds: Math.round(e.RIP_THROTTLE_MINUTES * 60),
    lockOffences: e.RIP_LOCK_OFFENCES,
    lockHours: e.RIP_LOCK_HOURS,
  };
}

/** The thresholds from the app's environment (AppConfig.env); ConfigError for a bad value. */
export function ripSettingsFrom(env: NodeJS.ProcessEnv): RipSettings {
  return ripSettings(parseEnv(z.object(ripDetectionEnv), env));
}
