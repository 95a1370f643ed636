import type { RipSettings } from './rip-settings.js';

/**
 * What one account has been served, as the times its buckets run empty (generic cell rate
 * algorithm): one number per bucket, so a store (memory, or Redis for every replica) keeps four
 * numbers an account and adds to them in one step.
 * - lead: audio counted ahead of `speed` times real time drains at `speed`;
 * - pool: free read-ahead taken, refilled at one read-ahead per `readAheadRefillSeconds`;
 * - pace: while throttled, when the account's next audio may go out at `throttleSpeed`.
 */
export interface Ledger {
  leadTat: number;
  poolTat: number;
  paceTat: number;
  throttledUntil: number;
}

/** What one step adds to a ledger, in seconds of audio. */
export interface LedgerCharge {
  /** Taken from the free read-ahead pool. */
  free: number;
  /** Counted towards the lead. */
  counted: number;
  /** Sent while throttled, paced at throttleSpeed. */
  paced: number;
}

export const emptyLedger = (): Ledger => ({ leadTat: 0, poolTat: 0, paceTat: 0, throttledUntil: 0 });

/** The rates a ledger runs at, from the settings: the one place the Redis script's numbers come from too. */
export function ledgerRates(s: RipSettings) {
  return {
    /** Milliseconds one second of audio adds to each bucket. */
    leadMs: 1000 / s.speed,
    poolMs: (1000 * s.readAheadRefillSeconds) / s.readAheadSeconds,
    paceMs: 1000 / s.throttleSpeed,
    poolSeconds: s.freeReadAheads * s.readAheadSeconds,
  };
}

/** Seconds of audio the account is ahead of `speed` times real time. */
export function leadOf(ledger: Ledger, now: number, s: RipSettings): number {
  return Math.max(0, ledger.leadTat - now) / ledgerRates(s).leadMs;
}

/** Free read-ahead left in the pool, in seconds of audio. */
export function poolLeft(ledger: Ledger, now: number, s: RipSettings): number {
  const { poolMs, poolSeconds } = ledgerRates(s);
  return Math.max(0, poolSeconds - Math.max(0, ledger.poolTat - now) / poolMs);
}

/**
 * Adds a charge at `now`; resolves to how long the paced part waits (ms). The Redis store runs the
 * same steps in Lua (ledger-store.ts).
 */
export function addCharge(ledger: Ledger, charge: LedgerCharge, now: number, s: RipSettings): number {
  const { leadMs, poolMs, paceMs } = ledgerRates(s);
  if (charge.free > 0) ledger.poolTat = Math.max(ledger.poolTat, now) + charge.free * poolMs;
  if (charge.counted > 0) ledger.leadTat = Math.max(ledger.leadTat, now) + charge.counted * leadMs;
  if (charge.paced <= 0) return 0;
  const start = Math.max(ledger.paceTat, now);
  ledger.paceTat = start + charge.paced * paceMs;
  return start - now;
}
