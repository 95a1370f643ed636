import type { RipSettings } from './rip-settings.js';
import { SessionMeter, type Media, type Run } from './session-meter.js';

export type RipRule = 'rate' | 'whole_file' | 'keys' | 'two_addresses';

/**
 * The credential whose bytes are metered: a device session as of its start (signing in again on the
 * device starts a new meter), or an API key, metered on its own, apart from its user's devices.
 */
export type MeteredCredential = { kind: 'session'; id: string; start: number } | { kind: 'apiKey'; id: string };

/** Who a byte request is for: a device session or an API key, its account, where it came from. */
export interface Listener {
  credential: MeteredCredential;
  userId: string;
  /** Administrators are metered like everyone but never throttled or flagged: the originals are theirs. */
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
  /** Audio counted over the window, in seconds, and the multiple of real time that is. */
  servedSeconds: number;
  speed: number;
  windowSeconds: number;
  /** The addresses the credential was used from (two for two_addresses). */
  addresses: string[];
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
/** A chapter load's read-ahead: Shaka buffers 10 s by default; this leaves room for retries. */
const SEGMENT_READ_AHEAD_SECONDS = 60;
/** The whole-file rule: this share of a file served... */
const WHOLE_FILE_SHARE = 0.9;
const MAX_SESSIONS = 10_000;
const IDLE_MS = 10 * 60_000;
/** Segment requests carry no session: they are the session's that fetched the chapter's playlist or key from that address. */
const MAX_ATTRIBUTIONS = 20_000;
const ATTRIBUTION_MS = 30 * 60_000;

type Attribution = Omit<Listener, 'address' | 'report'> & { until: number };

const meterKey = ({ credential: c }: Pick<Listener, 'credential'>) =>
  c.kind === 'session' ? `session:${c.id}:${c.start}` : `apiKey:${c.id}`;

/**
 * Rip detection's meter, in this process's memory: per device session or API key, the audio it was
 * served (seconds, from bytes actually written or segments sent), against real time times `speed`
 * over a sliding window. Pieces served before are not counted again; a jump's read-ahead is free, up
 * to `seeksPerWindow` read-aheads of audio not served before a window. An offence throttles the
 * session or key at once and is reported once per throttle period. No database work happens here;
 * README "Rip detection" has the why.
 */
export class RipMeter {
  readonly #sessions = new Map<string, SessionMeter>();
  readonly #attributions = new Map<string, Attribution>();

  constructor(
    readonly settings: RipSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Meters a whole-file response that starts at byte `from` of the file. */
  fileResponse(listener: Listener, file: { id: string; size: number; duration: number }, from: number): ByteTap {
    const now = this.now();
    const session = this.#session(listener, now);
    if (file.size <= 0 || file.duration <= 0) return { written: () => 0 };
    const media = session.media('file', file.id, file.size, file.duration, now);
    const perByte = file.duration / file.size;
    const run = media.runAt(from, CONTINUE_SLACK_BYTES, this.settings.readAheadBytes * perByte);
    let at = from;
    return {
      written: (bytes) => {
        const start = at;
        at += bytes;
        return this.#serve(listener, session, media, run, start, at, bytes * perByte);
      },
    };
  }

  /** Meters a chapter segment; resolves to how long to hold it (ms). */
  segment(listener: Listener, chapterId: string, index: number, seconds: number): number {
    const now = this.now();
    const session = this.#session(listener, now);
    const media = session.media('chapter', chapterId, 0, 0, now);
    const run = media.runAt(index, 1, SEGMENT_READ_AHEAD_SECONDS);
    return this.#serve(listener, session, media, run, index, index + 1, seconds);
  }

  /**
   * Counts a chapter key fetch. A throttled session gets one new key per window: null when this one
   * may go, else the seconds to wait.
   */
  key(listener: Listener, chapterId: string): number | null {
    const now = this.now();
    const session = this.#session(listener, now);
    const oldest = session.pruneKeys(now);
    if (session.isThrottled(now) && oldest !== null && !session.keys.has(chapterId)) {
      return Math.max(1, Math.ceil((oldest + this.settings.windowSeconds * 1000 - now) / 1000));
    }
    session.keys.set(chapterId, now);
    if (session.keys.size > this.settings.keysPerWindow) {
      this.#offend(listener, session, now, { rule: 'keys', chapterId, keys: session.keys.size });
    }
    return null;
  }

  /** Notes that this session fetched a chapter's playlist or key from its address (segments follow). */
  attribute(listener: Listener, chapterId: string): void {
    if (!listener.address) return;
    const key = `${listener.address}\n${chapterId}`;
    const { credential, userId, exempt } = listener;
    this.#attributions.delete(key);
    this.#attributions.set(key, { credential, userId, exempt, until: this.now() + ATTRIBUTION_MS });
    if (this.#attributions.size > MAX_ATTRIBUTIONS) {
      for (const [k, a] of this.#attributions) if (a.until <= this.now()) this.#attributions.delete(k);
      if (this.#attributions.size > MAX_ATTRIBUTIONS)
        this.#attributions.delete(this.#attributions.keys().next().value as string);
    }
  }

  /** The session a segment request from `address` belongs to, if one fetched the chapter from there lately. */
  segmentListener(address: string | null, chapterId: string, report: Listener['report']): Listener | null {
    const found = address ? this.#attributions.get(`${address}\n${chapterId}`) : undefined;
    if (!found || found.until <= this.now()) return null;
    const { credential, userId, exempt } = found;
    return { credential, userId, exempt, address, report };
  }

  /** Throttles a session or key flagged on another replica (or here) until `until`. */
  throttle(target: Pick<Listener, 'credential' | 'userId'>, until: number): void {
    const session = this.#session({ ...target, exempt: false, address: null, report: () => {} }, this.now());
    session.throttledUntil = Math.max(session.throttledUntil, until);
  }

  /** Drops what is kept of a user's sessions (their account was unlocked: a fresh start). */
  forgetUser(userId: string): void {
    for (const [key, s] of this.#sessions) if (s.userId === userId) this.#sessions.delete(key);
  }

  get size(): number {
    return this.#sessions.size;
  }

  #session(listener: Listener, now: number): SessionMeter {
    const key = meterKey(listener);
    let session = this.#sessions.get(key);
    if (session) {
      // Most recently used last, so eviction takes the longest idle first.
      this.#sessions.delete(key);
    } else {
      if (this.#sessions.size >= MAX_SESSIONS) this.#evict(now);
      session = new SessionMeter(listener.userId, listener.exempt, now, this.settings.windowSeconds * 1000);
    }
    this.#sessions.set(key, session);
    session.lastSeen = now;
    this.#checkAddress(listener, session, now);
    return session;
  }

  #evict(now: number): void {
    for (const [key, s] of this.#sessions) {
      if (s.lastSeen < now - IDLE_MS && !s.isThrottled(now)) this.#sessions.delete(key);
    }
    for (const key of this.#sessions.keys()) {
      if (this.#sessions.size < MAX_SESSIONS * 0.9) break;
      this.#sessions.delete(key);
    }
  }

  /**
   * Two addresses taking turns on one session within the address window: it is being used from two
   * places. Not for a key: it serves whatever machines its integrator runs, and its changes of
   * address are audited already (api_key.new_address).
   */
  #checkAddress(listener: Listener, session: SessionMeter, now: number): void {
    const address = listener.address;
    if (!address) return;
    if (address !== session.address) {
      const current = session.address;
      const takingTurns =
        listener.credential.kind === 'session' &&
        current !== null &&
        address === session.previousAddress &&
        now - session.addressAt <= this.settings.addressWindowSeconds * 1000;
      session.previousAddress = current;
      session.address = address;
      if (takingTurns) this.#offend(listener, session, now, { rule: 'two_addresses', addresses: [current, address] });
    }
    session.addressAt = now;
  }

  /** Counts units [start, end) of `media` (worth `seconds` of audio) and answers how long to hold them. */
  #serve(
    listener: Listener,
    session: SessionMeter,
    media: Media,
    run: Run,
    start: number,
    end: number,
    seconds: number,
  ): number {
    const now = this.now();
    const { settings } = this;
    if (seconds <= 0) return 0;
    const perUnit = seconds / (end - start);
    // Of the run's read-ahead, only audio not served before spends the window's read-aheads;
    // what the window cannot pay for counts, as does everything past the read-ahead.
    const freeUnits = Math.min(end - start, run.freeSeconds / perUnit);
    run.freeSeconds = Math.max(0, run.freeSeconds - freeUnits * perUnit);
    const freshAhead = media.coverage.fresh(start, start + freeUnits) * perUnit;
    const paid = Math.min(freshAhead, session.readAheadsLeft(settings.seeksPerWindow, now) * run.allowance);
    if (paid > 0) session.spendReadAhead(paid / run.allowance, now);
    const counted = media.coverage.fresh(start + freeUnits, end) * perUnit + (freshAhead - paid);
    run.end = end;
    media.coverage.add(start, end);
    const window = session.count(counted, now);
    const fileId = media.kind === 'file' ? media.id : null;
    const chapterId = media.kind === 'chapter' ? media.id : null;
    if (window > settings.speed * settings.windowSeconds) {
      this.#offend(listener, session, now, { rule: 'rate', fileId, chapterId });
    } else if (media.kind === 'file' && this.#wholeFileTaken(media, now)) {
      this.#offend(listener, session, now, {
        rule: 'whole_file',
        fileId,
        coverage: media.coverage.total / media.units,
        elapsedSeconds: (now - media.firstAt) / 1000,
      });
    }
    return session.pace(seconds, settings.throttleSpeed, now);
  }

  /**
   * Most of a file served sooner than it plays at `speed`: the whole-book rule. Files a window's
   * worth of free read-aheads could cover are left to the rate rule, as seeking through them
   * would look the same.
   */
  #wholeFileTaken(media: Media, now: number): boolean {
    const { speed, seeksPerWindow, readAheadBytes } = this.settings;
    return (
      media.units > seeksPerWindow * readAheadBytes &&
      media.coverage.total >= WHOLE_FILE_SHARE * media.units &&
      now - media.firstAt < (media.duration / speed) * 1000
    );
  }

  #offend(
    listener: Listener,
    session: SessionMeter,
    now: number,
    found: Pick<Offence, 'rule'> & Partial<Offence>,
  ): void {
    if (listener.exempt || session.isThrottled(now)) return;
    const { windowSeconds, throttleSeconds } = this.settings;
    session.throttledUntil = now + throttleSeconds * 1000;
    session.paceAt = now;
    const servedSeconds = session.count(0, now);
    listener.report({
      userId: listener.userId,
      credential: listener.credential,
      fileId: null,
      chapterId: null,
      servedSeconds,
      speed: servedSeconds / windowSeconds,
      windowSeconds,
      addresses: session.address ? [session.address] : [],
      ...found,
    });
  }
}
