import type { RipSettings } from './rip-settings.js';
import { leadOf, poolLeft } from './account-ledger.js';
import { AccountMeter, type Media, type Run } from './account-meter.js';
import { MemoryLedgerStore, type LedgerStore } from './ledger-store.js';

export type RipRule = 'rate' | 'whole_file' | 'keys' | 'two_addresses';

/**
 * The credential a byte request proved: a device session as of its start, or an API key. Every
 * credential of an account is metered on the account's one ledger; the credential says whose
 * offence it is (a key's repeats revoke the key, a session's lock the account).
 */
export type MeteredCredential = { kind: 'session'; id: string; start: number } | { kind: 'apiKey'; id: string };

/** Who a byte request is for: a device session or an API key, its account, where it came from. */
export interface Listener {
  credential: MeteredCredential;
  userId: string;
  /** An administrator's own sessions are metered but never paced, throttled or flagged: the originals are theirs. */
  exempt: boolean;
  /** The client address (the app's trust proxy setting applied); null when unknown. */
  address: string | null;
  /** Takes an offence off the byte path (audit, alert, lock); called at most once per throttle period. */
  report: (offence: Offence) => void;
}

export interface Offence {
  rule: RipRule;
  userId: string;
  credential: MeteredCredential;
  fileId: string | null;
  chapterId: string | null;
  /** Audio served over the window, in seconds, and the multiple of real time that is. */
  servedSeconds: number;
  speed: number;
  windowSeconds: number;
  /** The addresses the credential was used from (two for two_addresses). */
  addresses: string[];
  /** For rate: the seconds of audio the account was ahead of the allowed speed. */
  leadSeconds?: number;
  /** For whole_file: the share of the file served, and in how many seconds. For keys: how many. */
  coverage?: number;
  elapsedSeconds?: number;
  keys?: number;
}

/** Counts the bytes of one response as they are written; each call answers how long to hold them (ms). */
export interface ByteTap {
  written(bytes: number): number;
}

/** A read carrying on within this many bytes of where another stopped is the same run, not a jump. */
const CONTINUE_SLACK_BYTES = 256 * 1024;
/** The whole-file rule: this share of a file served in less than this share of the time one paced response takes. */
const WHOLE_FILE_SHARE = 0.9;
const WHOLE_FILE_PACE_SHARE = 0.9;
const MAX_ACCOUNTS = 10_000;
const IDLE_MS = 10 * 60_000;

const credentialKey = (c: MeteredCredential) =>
  c.kind === 'session' ? `session:${c.id}:${c.start}` : `apiKey:${c.id}`;

/**
 * Rip detection's meter, per account: every session, seek URL, segment, chapter key and API key of
 * an account draws on one ledger (shared by every replica when the store is Redis's). The rules:
 * - a jump (a new place in a file or chapter) gets `readAheadSeconds` of audio at full speed, free
 *   while the account's pool of free read-aheads lasts; past that the response is paced to `speed`
 *   times real time, so socket buffers never hold more than that;
 * - audio not free is counted on the account's lead, which drains at `speed`; a lead past
 *   `leadSeconds` is an offence (parallel responses, jumps past the pool);
 * - most of a file longer than a read-ahead served sooner than one paced response could take it is
 *   an offence, whatever the file's size;
 * - too many chapter keys in a window, and one device session used from two addresses in turns.
 * An offence throttles the account (all its audio paced to `throttleSpeed`) and is reported once.
 * Audio served to the account before (here) is not counted again. No database work happens here;
 * docs/rip-detection.md has the why.
 */
export class RipMeter {
  readonly #accounts = new Map<string, AccountMeter>();

  constructor(
    readonly settings: RipSettings,
    private readonly store: LedgerStore = new MemoryLedgerStore(settings),
    private readonly now: () => number = Date.now,
  ) {}

  /** Meters a whole-file response that starts at byte `from` of the file. */
  fileResponse(listener: Listener, file: { id: string; size: number; duration: number }, from: number): ByteTap {
    const now = this.now();
    const account = this.#account(listener, now);
    if (file.size <= 0 || file.duration <= 0) return { written: () => 0 };
    const media = account.media('file', file.id, file.size, file.duration, now);
    const perByte = file.duration / file.size;
    const run = media.runAt(from, CONTINUE_SLACK_BYTES, this.#readAhead(listener), now);
    let at = from;
    return {
      written: (bytes) => {
        const start = at;
        at += bytes;
        return this.#serve(listener, account, media, run, start, at, bytes * perByte);
      },
    };
  }

  /** Meters a chapter segment; resolves to how long to hold it (ms). */
  segment(listener: Listener, chapterId: string, index: number, seconds: number): number {
    const now = this.now();
    const account = this.#account(listener, now);
    const media = account.media('chapter', chapterId, 0, 0, now);
    const run = media.runAt(index, 1, this.#readAhead(listener), now);
    return this.#serve(listener, account, media, run, index, index + 1, seconds);
  }

  /**
   * Counts a chapter key fetch. A throttled account gets one new key per window: null when this one
   * may go, else the seconds to wait.
   */
  key(listener: Listener, chapterId: string): number | null {
    const now = this.now();
    const account = this.#account(listener, now);
    const oldest = account.pruneKeys(now);
    if (this.#throttled(listener, now) && oldest !== null && !account.keys.has(chapterId)) {
      return Math.max(1, Math.ceil((oldest + this.settings.windowSeconds * 1000 - now) / 1000));
    }
    account.keys.set(chapterId, now);
    if (account.keys.size > this.settings.keysPerWindow) {
      this.#offend(listener, account, now, { rule: 'keys', chapterId, keys: account.keys.size });
    }
    return null;
  }

  /** Throttles an account flagged on another replica (or here) until `until`. */
  throttle(target: Pick<Listener, 'userId'>, until: number): void {
    this.store.noteThrottle(target.userId, until);
  }

  /** Forgets an account's meter everywhere (it was unlocked: a fresh start). */
  forgetUser(userId: string): void {
    this.#accounts.delete(userId);
    this.store.forget(userId);
  }

  /** The account's lead over the allowed speed, in seconds of audio, as this process knows it. */
  leadOf(userId: string): number {
    return leadOf(this.store.get(userId), this.now(), this.settings);
  }

  get size(): number {
    return this.#accounts.size;
  }

  /** An administrator's own sessions read at full speed; everyone else gets a read-ahead, then the pace. */
  #readAhead(listener: Listener): number {
    return listener.exempt ? Infinity : this.settings.readAheadSeconds;
  }

  #throttled(listener: Listener, now: number): boolean {
    return !listener.exempt && this.store.get(listener.userId).throttledUntil > now;
  }

  #account(listener: Listener, now: number): AccountMeter {
    const key = listener.userId;
    let account = this.#accounts.get(key);
    if (account) {
      // Most recently used last, so eviction takes the longest idle first.
      this.#accounts.delete(key);
    } else {
      if (this.#accounts.size >= MAX_ACCOUNTS) this.#evict(now);
      account = new AccountMeter(now, this.settings.windowSeconds * 1000);
    }
    this.#accounts.set(key, account);
    account.lastSeen = now;
    this.#checkAddress(listener, account, now);
    return account;
  }

  #evict(now: number): void {
    for (const [key, a] of this.#accounts) if (a.lastSeen < now - IDLE_MS) this.#accounts.delete(key);
    for (const key of this.#accounts.keys()) {
      if (this.#accounts.size < MAX_ACCOUNTS * 0.9) break;
      this.#accounts.delete(key);
    }
  }

  /**
   * Two addresses taking turns on one device session within the address window: it is being used
   * from two places. Not for a key: it serves whatever machines its integrator runs, and its
   * changes of address are audited already (api_key.new_address).
   */
  #checkAddress(listener: Listener, account: AccountMeter, now: number): void {
    const { address, credential } = listener;
    if (!address || credential.kind !== 'session') return;
    const trail = account.trail(credentialKey(credential));
    if (address !== trail.address) {
      const current = trail.address;
      const takingTurns =
        current !== null &&
        address === trail.previousAddress &&
        now - trail.addressAt <= this.settings.addressWindowSeconds * 1000;
      trail.previousAddress = current;
      trail.address = address;
      if (takingTurns) this.#offend(listener, account, now, { rule: 'two_addresses', addresses: [current, address] });
    }
    trail.addressAt = now;
  }

  /** Counts units [start, end) of `media` (worth `seconds` of audio) and answers how long to hold them. */
  #serve(
    listener: Listener,
    account: AccountMeter,
    media: Media,
    run: Run,
    start: number,
    end: number,
    seconds: number,
  ): number {
    const now = this.now();
    const { settings, store } = this;
    if (seconds <= 0) return 0;
    const userId = listener.userId;
    const fresh = media.coverage.fresh(start, end) * (seconds / (end - start));
    media.coverage.add(start, end);
    run.end = end;
    // The run's read-ahead goes at full speed; of it, new audio is free while the pool lasts.
    const inReadAhead = Math.min(seconds, run.freeLeft);
    run.freeLeft -= inReadAhead;
    const free = Math.min(fresh, inReadAhead, poolLeft(store.get(userId), now, settings));
    const throttled = this.#throttled(listener, now);
    const held = store.charge(userId, { free, counted: fresh - free, paced: throttled ? seconds : 0 }, now);
    account.count(fresh, now);
    const fileId = media.kind === 'file' ? media.id : null;
    const chapterId = media.kind === 'chapter' ? media.id : null;
    const lead = leadOf(store.get(userId), now, settings);
    if (lead > settings.leadSeconds) {
      this.#offend(listener, account, now, { rule: 'rate', fileId, chapterId, leadSeconds: Math.round(lead) });
    } else if (media.kind === 'file' && this.#wholeFileTaken(media, now)) {
      this.#offend(listener, account, now, {
        rule: 'whole_file',
        fileId,
        coverage: media.coverage.total / media.units,
        elapsedSeconds: (now - media.firstAt) / 1000,
      });
    }
    return Math.max(held, this.#pace(listener, run, seconds - inReadAhead, now));
  }

  /** Past its read-ahead a run goes at `speed` times real time: how long this part of it waits (ms). */
  #pace(listener: Listener, run: Run, seconds: number, now: number): number {
    if (seconds <= 0 || listener.exempt) return 0;
    const start = Math.max(run.paceTat, now);
    run.paceTat = start + (seconds * 1000) / this.settings.speed;
    return start - now;
  }

  /**
   * Most of a file served sooner than one response could take it: a read-ahead, then `speed` times
   * real time, less a tenth for a player's buffers. Only several responses at once or read-aheads
   * from the pool cover a file that fast, whatever its size. A file no longer than one read-ahead
   * is what a player reads at once, so it is left to the lead.
   */
  #wholeFileTaken(media: Media, now: number): boolean {
    const { speed, readAheadSeconds } = this.settings;
    const share = WHOLE_FILE_SHARE * media.duration;
    return (
      media.duration > readAheadSeconds &&
      media.coverage.total >= WHOLE_FILE_SHARE * media.units &&
      now - media.firstAt < ((share - readAheadSeconds) / speed) * 1000 * WHOLE_FILE_PACE_SHARE
    );
  }

  #offend(
    listener: Listener,
    account: AccountMeter,
    now: number,
    found: Pick<Offence, 'rule'> & Partial<Offence>,
  ): void {
    if (listener.exempt || this.#throttled(listener, now)) return;
    const { windowSeconds, throttleSeconds } = this.settings;
    const servedSeconds = account.count(0, now);
    const trail = listener.credential.kind === 'session' ? account.trail(credentialKey(listener.credential)) : null;
    const offence: Offence = {
      userId: listener.userId,
      credential: listener.credential,
      fileId: null,
      chapterId: null,
      servedSeconds,
      speed: servedSeconds / windowSeconds,
      windowSeconds,
      addresses: trail?.address ? [trail.address] : listener.address ? [listener.address] : [],
      ...found,
    };
    // Of all replicas flagging the account at once, the one whose throttle took reports it.
    const started = this.store.throttle(listener.userId, now + throttleSeconds * 1000, now);
    if (started === true) listener.report(offence);
    else if (started !== false) {
      started.then(
        (took) => took && listener.report(offence),
        () => listener.report(offence),
      );
    }
  }
}
