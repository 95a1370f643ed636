import type { AppPubSub } from '../../event-bus.js';
import type { Logger } from '../../logger.js';
import type { AccessFacts, StreamTokenFacts } from './access-facts.js';
import { streamRefusal } from './stream-access.js';

/**
 * Something that may narrow who can read which file: every replica drops what it cached of that user
 * or file (access-facts-cache.ts). Security events raise it too (security-events.ts).
 */
export interface AccessChangePayload {
  userId: string | null;
  fileId: string | null;
}

declare module '../../event-bus.js' {
  interface AppEvents {
    ACCESS_CHANGED: [payload: AccessChangePayload];
  }
}

/**
 * The access facts of byte requests, kept in memory: a player's ranges and the 2-second re-checks of
 * open responses would otherwise each cost a statement joining four tables. Revocation stays
 * instant: every change that can narrow access raises ACCESS_CHANGED (security events do, through
 * security-events.ts), which drops the user's or file's entries on this replica at once and on the
 * others through the event bus (Redis when configured). Time-bound facts (a grant's or a stream
 * token's expiry) are compared with the clock at each use, as when they are read from the database.
 * An entry lives at most TTL_MS, a bound for anything an event might miss, and at most MAX_ENTRIES
 * are kept (the oldest go first).
 */
const TTL_MS = 10_000;
const MAX_ENTRIES = 5_000;

/**
 * Whether facts let their session read their file now. Only such facts are kept: a refusal is read
 * again on the next request, so a new grant, an unlock or a file made public counts at once.
 */
function allowsNow(facts: AccessFacts): boolean {
  return streamRefusal(facts, facts.session.startedAt.getTime()) === null;
}

export class FactsCache<T extends AccessFacts> {
  readonly #entries = new Map<string, { facts: T; until: number }>();
  /** Bumped by every change, so facts read while one happened are not kept. */
  #generation = 0;

  constructor(private readonly limits = { ttlMs: TTL_MS, maxEntries: MAX_ENTRIES }) {}

  /** The facts under `key`, from memory or from `load` (kept when they allow the request). */
  async read(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const now = Date.now();
    const entry = this.#entries.get(key);
    if (entry && entry.until > now) return entry.facts;
    if (entry) this.#entries.delete(key);
    const generation = this.#generation;
    const facts = await load();
    if (facts && generation === this.#generation && allowsNow(facts)) {
      if (this.#entries.size >= this.limits.maxEntries) {
        this.#entries.delete(this.#entries.keys().next().value as string);
      }
      this.#entries.set(key, { facts, until: now + this.limits.ttlMs });
    }
    return facts;
  }

  /** Drops every entry of the user or the file the change names. */
  forget(change: AccessChangePayload): void {
    this.#generation += 1;
    for (const [key, { facts }] of this.#entries) {
      if (facts.user.id === change.userId || (change.fileId !== null && facts.file?.id === change.fileId)) {
        this.#entries.delete(key);
      }
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

export interface AccessFactsCaches {
  /** Whole-file stream sessions, by their token (in memory only; the database keeps its hash). */
  streamTokens: FactsCache<StreamTokenFacts>;
  /** A device session with one file (signed seek URLs), by `${sessionId}:${fileId}`. */
  sessionFiles: FactsCache<AccessFacts>;
}

/**
 * This replica's caches, and the event bus as services publish on it: an ACCESS_CHANGED published
 * here empties this replica's entries before the publish returns (through Redis the event itself
 * arrives a round trip later), and one from another replica empties them when it arrives. The
 * listening lasts as long as the bus (closing it ends the deliveries).
 */
export function accessFactsCaches(
  bus: AppPubSub,
  logger: Logger,
): { accessFacts: AccessFactsCaches; pubSub: AppPubSub } {
  const caches: AccessFactsCaches = { streamTokens: new FactsCache(), sessionFiles: new FactsCache() };
  const forget = (change: AccessChangePayload) => {
    caches.streamTokens.forget(change);
    caches.sessionFiles.forget(change);
  };
  void (async () => {
    for await (const change of bus.subscribe('ACCESS_CHANGED')) forget(change);
  })().catch((err: unknown) => {
    // Changes from other replicas no longer arrive: their entries now end with TTL_MS.
    logger.error('access.cache_listener_failed', { error: String(err) });
  });
  const pubSub: AppPubSub = {
    subscribe: bus.subscribe.bind(bus),
    publish(topic, ...args) {
      // The one topic without an id: its payload is the first argument.
      if (topic === 'ACCESS_CHANGED') forget(args[0] as AccessChangePayload);
      bus.publish(topic, ...args);
    },
  };
  return { accessFacts: caches, pubSub };
}

declare module '../../context.js' {
  interface AppDeps {
    /** What byte requests are checked against, kept between requests. */
    accessFacts: AccessFactsCaches;
  }
}
