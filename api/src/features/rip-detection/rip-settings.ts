import { z } from 'zod';

/** Rip detection's thresholds, read from the environment once (config.ts); README "Rip detection". */
export interface RipSettings {
  /** Allowed multiple of real time: audio served faster than this over a window is an offence. */
  speed: number;
  /** The sliding window the speed is measured over, in seconds. */
  windowSeconds: number;
  /**
   * Bytes a jump (a new place in a file) may take at full speed without counting: a browser's
   * read-ahead after a seek plus what the socket buffers take before it stops reading.
   */
  readAheadBytes: number;
  /**
   * Read-aheads of new audio per window that are free (one per seek or chapter skip; a seek into
   * audio served before spends little); past them, read-ahead counts in full.
   */
  seeksPerWindow: number;
  /** Distinct chapter keys one session may fetch per window. */
  keysPerWindow: number;
  /** Two client addresses taking turns on one session within this many seconds is an offence. */
  addressWindowSeconds: number;
  /** A flagged session's bytes are paced to this multiple of real time. */
  throttleSpeed: number;
  /** How long a flagged session stays throttled, in seconds. */
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

/** The environment variables, with their defaults; spread into config.ts's schema. */
export const ripDetectionEnv = {
  RIP_SPEED: positive('RIP_SPEED').min(1, 'RIP_SPEED must be at least 1').default(4),
  RIP_WINDOW_SECONDS: whole('RIP_WINDOW_SECONDS', 10).default(60),
  RIP_READ_AHEAD_MB: positive('RIP_READ_AHEAD_MB').default(16),
  RIP_SEEKS_PER_WINDOW: whole('RIP_SEEKS_PER_WINDOW', 1).default(15),
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
    readAheadBytes: Math.round(e.RIP_READ_AHEAD_MB * 1024 * 1024),
    seeksPerWindow: e.RIP_SEEKS_PER_WINDOW,
    keysPerWindow: e.RIP_KEYS_PER_WINDOW,
    addressWindowSeconds: e.RIP_ADDRESS_WINDOW_SECONDS,
    throttleSpeed: e.RIP_THROTTLE_SPEED,
    throttleSeconds: Math.round(e.RIP_THROTTLE_MINUTES * 60),
    lockOffences: e.RIP_LOCK_OFFENCES,
    lockHours: e.RIP_LOCK_HOURS,
  };
}
