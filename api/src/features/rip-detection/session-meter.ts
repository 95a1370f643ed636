import { Coverage } from './coverage.js';

/** The sliding window is kept as this many buckets: a sum of twelve numbers per piece served. */
const BUCKETS = 12;
/** Files (and chapters) remembered per session, and jumps per file: the most recent ones. */
const MAX_MEDIA = 8;
const MAX_RUNS = 8;

/**
 * A run of reading through one file or chapter: the response that jumped to a place, and the ones
 * that carry on from where it stopped. Its first `allowance` seconds are read-ahead, free while the
 * window has read-aheads left.
 */
export interface Run {
  end: number;
  allowance: number;
  freeSeconds: number;
}

/** One file (units: bytes) or chapter (units: segment numbers) as one session has been served it. */
export class Media {
  readonly coverage = new Coverage();
  readonly runs: Run[] = [];

  constructor(
    readonly kind: 'file' | 'chapter',
    readonly id: string,
    /** Size in units (bytes of a file; unknown, 0, for a chapter) and its length in seconds. */
    readonly units: number,
    readonly duration: number,
    readonly firstAt: number,
  ) {}

  /** The run a read from `from` carries on (within `slack` units of where one stopped), or a new one. */
  runAt(from: number, slack: number, readAheadSeconds: number): Run {
    const found = this.runs.findIndex((r) => Math.abs(r.end - from) <= slack);
    if (found >= 0) {
      const [run] = this.runs.splice(found, 1);
      this.runs.push(run);
      return run;
    }
    const run: Run = { end: from, allowance: readAheadSeconds, freeSeconds: readAheadSeconds };
    this.runs.push(run);
    if (this.runs.length > MAX_RUNS) this.runs.shift();
    return run;
  }
}

/** What one device session (as of its start) or API key has been served: the state rip detection keeps. */
export class SessionMeter {
  readonly #buckets = new Float64Array(BUCKETS);
  #bucket = 0;
  /** Read-aheads spent in the window (in whole read-aheads of new audio), and when. */
  readonly #readAheads: { at: number; spent: number }[] = [];
  #spent = 0;
  /** Chapter keys fetched in the window, by chapter, with when. */
  readonly keys = new Map<string, number>();
  readonly #media = new Map<string, Media>();
  address: string | null = null;
  addressAt = 0;
  previousAddress: string | null = null;
  throttledUntil = 0;
  /** While throttled: when the next piece may go out. */
  paceAt = 0;
  lastSeen: number;

  constructor(
    readonly userId: string,
    readonly exempt: boolean,
    now: number,
    private readonly windowMs: number,
  ) {
    this.lastSeen = now;
  }

  media(kind: Media['kind'], id: string, units: number, duration: number, now: number): Media {
    const key = `${kind}:${id}`;
    let media = this.#media.get(key);
    if (!media) {
      media = new Media(kind, id, units, duration, now);
      this.#media.set(key, media);
      if (this.#media.size > MAX_MEDIA) this.#media.delete(this.#media.keys().next().value as string);
    }
    return media;
  }

  /** Adds counted seconds at `now`; resolves to the seconds counted over the window. */
  count(seconds: number, now: number): number {
    const bucket = Math.floor(now / (this.windowMs / BUCKETS));
    if (bucket !== this.#bucket) {
      const stale = Math.min(BUCKETS, Math.max(0, bucket - this.#bucket));
      for (let k = 1; k <= stale; k++) this.#buckets[(this.#bucket + k) % BUCKETS] = 0;
      this.#bucket = Math.max(bucket, this.#bucket);
    }
    this.#buckets[this.#bucket % BUCKETS] += seconds;
    let sum = 0;
    for (const s of this.#buckets) sum += s;
    return sum;
  }

  /** Read-aheads the window has left, of `limit`. */
  readAheadsLeft(limit: number, now: number): number {
    const spent = this.#readAheads;
    while (spent.length > 0 && spent[0].at <= now - this.windowMs) this.#spent -= spent.shift()?.spent ?? 0;
    return Math.max(0, limit - this.#spent);
  }

  spendReadAhead(amount: number, now: number): void {
    this.#spent += amount;
    const last = this.#readAheads.at(-1);
    // One entry per moment keeps the list short while a response streams.
    if (last && last.at === now) last.spent += amount;
    else this.#readAheads.push({ at: now, spent: amount });
  }

  /** Forgets keys fetched before the window; resolves to the oldest kept key's time. */
  pruneKeys(now: number): number | null {
    let oldest: number | null = null;
    for (const [chapterId, at] of this.keys) {
      if (at <= now - this.windowMs) this.keys.delete(chapterId);
      else oldest = oldest === null ? at : Math.min(oldest, at);
    }
    return oldest;
  }

  isThrottled(now: number): boolean {
    return now < this.throttledUntil;
  }

  /** How long a piece of `seconds` of audio waits, keeping a throttled session to `speed` times real time. */
  pace(seconds: number, speed: number, now: number): number {
    if (!this.isThrottled(now)) return 0;
    const start = Math.max(this.paceAt, now);
    this.paceAt = start + (seconds / speed) * 1000;
    return start - now;
  }
}
