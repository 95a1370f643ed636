import type { Redis } from 'ioredis';
import { addCharge, emptyLedger, ledgerRates, type Ledger, type LedgerCharge } from './account-ledger.js';
import type { RipSettings } from './rip-settings.js';

/**
 * Where accounts' ledgers live. Reads are synchronous, from this process's copy, so the byte path
 * never waits on a network; with Redis each charge is applied here at once and sent on, and the
 * copy is replaced by the deployment's sum as each answer comes back (a round trip behind).
 */
export interface LedgerStore {
  get(account: string): Ledger;
  /** Adds a charge at `now`; resolves to how long its paced part waits (ms). */
  charge(account: string, charge: LedgerCharge, now: number): number;
  /**
   * Starts a throttle until `until` unless one runs; true for the one call (of all replicas) that
   * started it. In memory it answers at once, so an offence is reported in the same step.
   */
  throttle(account: string, until: number, now: number): boolean | Promise<boolean>;
  /** A throttle started elsewhere (an alert from another replica): this copy learns of it. */
  noteThrottle(account: string, until: number): void;
  /** Forgets an account (an administrator unlocked it: a fresh start); shared ledgers go in the background. */
  forget(account: string): void;
}

const MAX_ACCOUNTS = 20_000;

/** Ledgers in this process's memory, the most recently charged kept when there are too many. */
export class MemoryLedgerStore implements LedgerStore {
  protected readonly ledgers = new Map<string, Ledger>();

  constructor(protected readonly settings: RipSettings) {}

  get(account: string): Ledger {
    let ledger = this.ledgers.get(account);
    if (ledger) {
      this.ledgers.delete(account);
    } else {
      ledger = emptyLedger();
      if (this.ledgers.size >= MAX_ACCOUNTS) this.#evict();
    }
    this.ledgers.set(account, ledger);
    return ledger;
  }

  charge(account: string, charge: LedgerCharge, now: number): number {
    return addCharge(this.get(account), charge, now, this.settings);
  }

  throttle(account: string, until: number, now: number): boolean | Promise<boolean> {
    return startThrottle(this.get(account), until, now);
  }

  noteThrottle(account: string, until: number): void {
    const ledger = this.get(account);
    ledger.throttledUntil = Math.max(ledger.throttledUntil, until);
  }

  forget(account: string): void {
    this.ledgers.delete(account);
  }

  #evict(): void {
    for (const key of this.ledgers.keys()) {
      if (this.ledgers.size < MAX_ACCOUNTS * 0.9) break;
      this.ledgers.delete(key);
    }
  }
}

function startThrottle(ledger: Ledger, until: number, now: number): boolean {
  if (ledger.throttledUntil > now) return false;
  ledger.throttledUntil = until;
  ledger.paceTat = now;
  return true;
}

/** The same steps as addCharge and startThrottle, on one Redis hash per account. */
const CHARGE = `
local now = tonumber(ARGV[1])
local v = redis.call('HMGET', KEYS[1], 'lead', 'pool', 'pace', 'until')
local lead, pool, pace, till = tonumber(v[1]) or 0, tonumber(v[2]) or 0, tonumber(v[3]) or 0, tonumber(v[4]) or 0
local free, counted, paced = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if free > 0 then pool = math.max(pool, now) + free * tonumber(ARGV[5]) end
if counted > 0 then lead = math.max(lead, now) + counted * tonumber(ARGV[6]) end
if paced > 0 then pace = math.max(pace, now) + paced * tonumber(ARGV[7]) end
local started = 0
local throttleUntil = tonumber(ARGV[8])
if throttleUntil > 0 and till <= now then till = throttleUntil; pace = now; started = 1 end
redis.call('HSET', KEYS[1], 'lead', tostring(lead), 'pool', tostring(pool), 'pace', tostring(pace), 'until', tostring(till))
redis.call('PEXPIRE', KEYS[1], ARGV[9])
return { tostring(lead), tostring(pool), tostring(pace), tostring(till), started }
`;

/** Defined once per client: ioredis sends the script's hash, and the script only when Redis lacks it. */
const CHARGE_COMMAND = 'palRipCharge';

type Reply = [string, string, string, string, number];

interface Pending extends LedgerCharge {
  inFlight: boolean;
}

/**
 * Ledgers shared by every replica through Redis: one hash per account, changed by one script call,
 * so charges from several replicas add up exactly. Charges are batched per account while a call is
 * on its way. If Redis fails, this process's copy goes on counting on its own; a failed call is not
 * logged, as that would be once per piece of audio.
 */
export class RedisLedgerStore extends MemoryLedgerStore {
  readonly #pending = new Map<string, Pending>();
  readonly #ttlMs: number;

  constructor(
    settings: RipSettings,
    private readonly redis: Redis,
    private readonly prefix = 'pal:rip:',
  ) {
    super(settings);
    redis.defineCommand(CHARGE_COMMAND, { numberOfKeys: 1, lua: CHARGE });
    const { leadMs, poolMs } = ledgerRates(settings);
    // Long enough that a key outlives every bucket it holds when full, and any throttle.
    this.#ttlMs = Math.ceil(
      Math.max(
        settings.leadSeconds * leadMs,
        settings.freeReadAheads * settings.readAheadSeconds * poolMs,
        settings.throttleSeconds * 1000,
      ) + 60_000,
    );
  }

  override charge(account: string, charge: LedgerCharge, now: number): number {
    const wait = super.charge(account, charge, now);
    let pending = this.#pending.get(account);
    if (!pending) this.#pending.set(account, (pending = { free: 0, counted: 0, paced: 0, inFlight: false }));
    pending.free += charge.free;
    pending.counted += charge.counted;
    pending.paced += charge.paced;
    if (!pending.inFlight) this.#send(account, pending);
    return wait;
  }

  override async throttle(account: string, until: number, now: number): Promise<boolean> {
    // Paced here at once; the reply says whether this replica's call is the one that started it.
    startThrottle(this.get(account), until, now);
    const reply = await this.#call(account, { free: 0, counted: 0, paced: 0 }, now, until);
    this.#adopt(account, reply);
    return reply[4] === 1;
  }

  override forget(account: string): void {
    super.forget(account);
    // A failure leaves the ledger to expire with its buckets.
    this.redis.del(this.prefix + account).catch(() => {});
  }

  #send(account: string, pending: Pending): void {
    const charge = { free: pending.free, counted: pending.counted, paced: pending.paced };
    Object.assign(pending, { free: 0, counted: 0, paced: 0, inFlight: true });
    this.#call(account, charge, Date.now(), 0)
      .then((reply) => this.#adopt(account, reply))
      .catch(() => {})
      .finally(() => {
        pending.inFlight = false;
        if (pending.free + pending.counted + pending.paced > 0) this.#send(account, pending);
        else this.#pending.delete(account);
      });
  }

  #call(account: string, c: LedgerCharge, now: number, throttleUntil: number): Promise<Reply> {
    const { poolMs, leadMs, paceMs } = ledgerRates(this.settings);
    const script = (
      this.redis as unknown as Record<typeof CHARGE_COMMAND, (...args: (string | number)[]) => Promise<Reply>>
    )[CHARGE_COMMAND];
    return script.call(
      this.redis,
      this.prefix + account,
      now,
      c.free,
      c.counted,
      c.paced,
      poolMs,
      leadMs,
      paceMs,
      throttleUntil,
      this.#ttlMs,
    );
  }

  /** The deployment's ledger, plus what was charged here since the call left. */
  #adopt(account: string, reply: Reply): void {
    const [lead, pool, pace, until] = reply.slice(0, 4).map(Number);
    const ledger = this.get(account);
    Object.assign(ledger, { leadTat: lead, poolTat: pool, paceTat: pace, throttledUntil: until });
    const since = this.#pending.get(account);
    if (since) addCharge(ledger, { free: since.free, counted: since.counted, paced: 0 }, Date.now(), this.settings);
  }
}
