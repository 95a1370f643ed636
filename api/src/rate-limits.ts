import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Where the app's counters live (rate-limiter-flexible): in Redis when REDIS_URL is set, so that
 * every replica counts in one place, else in this process's memory.
 */
export interface RateLimitStore {
  /**
   * A counter of its own name, per key, in fixed windows of `durationSeconds` (0: kept until
   * deleted), whose `points` a hit may not pass.
   */
  counter(name: string, points: number, durationSeconds: number): RateLimiterAbstract;
  close(): Promise<void>;
}

export function memoryRateLimitStore(): RateLimitStore {
  return {
    counter: (name, points, duration) => new RateLimiterMemory({ keyPrefix: name, points, duration }),
    close: async () => {},
  };
}

/**
 * In memory by default; in Redis when a URL is given, under `keyPrefix` so that deployments (or
 * test files) sharing a Redis keep apart. The Redis client is loaded only then, and the app does not
 * start without reaching it: counts kept apart per replica would be no limit at all.
 */
export async function createRateLimitStore(redisUrl: string | undefined, keyPrefix: string): Promise<RateLimitStore> {
  if (!redisUrl) return memoryRateLimitStore();
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await client.connect().catch((err: unknown) => {
    client.disconnect();
    throw err;
  });
  return {
    counter: (name, points, duration) =>
      new RateLimiterRedis({ storeClient: client, keyPrefix: `${keyPrefix}:${name}`, points, duration }),
    async close() {
      client.disconnect();
    },
  };
}

/** Where a key stands in its window, for RateLimit-* headers. */
export interface RateLimitState {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window starts anew. */
  resetSeconds: number;
}

/**
 * Hits per key in fixed windows, over a store's counter. Every key has the counter's points as its
 * limit, unless a hit names its own (each API key's).
 */
export class RateLimiter {
  constructor(private readonly counter: RateLimiterAbstract) {}

  /** Counts a hit; false when the key is over its limit for the current window. */
  async hit(key: string): Promise<boolean> {
    return (await this.count(key)).allowed;
  }

  /** Counts a hit against `limit`, and tells where the key's window stands. */
  async count(key: string, limit = this.counter.points): Promise<RateLimitState> {
    // Past the counter's points the hit is counted all the same, and the answer comes as a rejection.
    const res = await this.counter.consume(key).catch((refusal: unknown) => {
      if (refusal instanceof RateLimiterRes) return refusal;
      throw refusal;
    });
    return {
      allowed: res.consumedPoints <= limit,
      remaining: Math.max(0, limit - res.consumedPoints),
      resetSeconds: Math.ceil(res.msBeforeNext / 1000),
    };
  }
}
