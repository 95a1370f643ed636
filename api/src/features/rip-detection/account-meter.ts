import { Coverage } from './coverage.js';

/** The window of served audio reported with an offence is kept as this many buckets. */
const BUCKETS = 12;
/** Files (and chapters) remembered per account, and jumps per file: the most recent ones. */
const MAX_MEDIA = 8;
const MAX_RUNS = 8;
/** Device sessions and keys whose addresses are remembered per account. */
const MAX_CREDENTIALS = 8;

/**
 * A run of reading through one file or chapter: the response that jumped to a place, and the ones
 * that carry on from where it stopped. Its first `freeLeft` seconds go at full speed; after them it
 * is paced to the allowed speed from when it started (`paceTat`, when its next second may go).
 */
export interface Run {
  end: number;
  freeLeft: number;
  paceTat: number;
}

/** One file (units: bytes) or chapter (units: segment numbers) as one account has been served it here. */
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
  runAt(from: number, slack: number, readAheadSeconds: number, now: number): Run {
    const found = this.runs.findIndex((r) => Math.abs(r.end - from) <= slack);
    if (found >= 0) {
      const [run] = this.runs.splice(found, 1);
      this.runs.push(run);
      return run;
    }
    const run: Run = { end: from, freeLeft: readAheadSeconds, paceTat: now };
    this.runs.push(run);
    if (this.runs.length > MAX_RUNS) this.runs.shift();
    return run;
  }
}

/** Where one device session was last used from, for the two-addresses rule. */
export interface AddressTrail {
  address: string | null;
  previousAddress: string | null;
  addressAt: number;
}

/**
 * What this process keeps of one account besides its shared ledger: which parts of which files it
 * was served here (so a seek back is not counted twice), its runs, its chapter keys, the audio of
 * the last window (reported with an offence) and its sessions' addresses.
 */
export class AccountMeter {
  readonly #buckets = new Float64Array(BUCKETS);
  #bucket = 0;
  /** Chapter keys fetched in the window, by chapter, with when. */
  readonly keys = new Map<string, number>();
  readonly #media = new Map<string, Media>();
  readonly #trails = new Map<string, AddressTrail>();
  lastSeen: number;

  constructor(
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

  trail(credential: string): AddressTrail {
    let trail = this.#trails.get(credential);
    if (!trail) {
      trail = { address: null, previousAddress: null, addressAt: 0 };
      this.#trails.set(credential, trail);
      if (this.#trails.size > MAX_CREDENTIALS) this.#trails.delete(this.#trails.keys().next().value as string);
    }
    return trail;
  }

  /** Adds served seconds at `now`; resolves to the seconds served over the window. */
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

  /** Forgets keys fetched before the window; resolves to the oldest kept key's time. */
  pruneKeys(now: number): number | null {
    let oldest: number | null = null;
    for (const [chapterId, at] of this.keys) {
      if (at <= now - this.windowMs) this.keys.delete(chapterId);
      else oldest = oldest === null ? at : Math.min(oldest, at);
    }
    return oldest;
  }
}
