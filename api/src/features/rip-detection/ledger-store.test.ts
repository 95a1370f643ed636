import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { leadOf } from './account-ledger.js';
import { RedisLedgerStore } from './ledger-store.js';
import { ripDetectionEnv, ripSettings } from './rip-settings.js';

const redisUrl = process.env.REDIS_TEST_URL;
const settings = ripSettings(z.object(ripDetectionEnv).parse({}));

/** Waits until every charge sent has come back (each store has at most one call on its way per account). */
const settle = () => new Promise((r) => setTimeout(r, 100));

describe.skipIf(!redisUrl)('ledgers shared by replicas through Redis', () => {
  const clients: Redis[] = [];
  let prefix: string;
  const replica = () => {
    const client = new Redis(redisUrl as string);
    clients.push(client);
    return new RedisLedgerStore(settings, client, prefix);
  };
  beforeAll(() => {
    prefix = `pal-test-${randomUUID()}:rip:`;
  });
  afterAll(async () => {
    const [client] = clients;
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    for (const c of clients) c.disconnect();
  });

  it('adds up what every replica charged, and each replica sees the sum a round trip later', async () => {
    const [a, b] = [replica(), replica()];
    const account = randomUUID();
    const now = Date.now();
    for (let k = 0; k < 10; k++) {
      a.charge(account, { free: 0, counted: 10, paced: 0 }, now);
      b.charge(account, { free: 0, counted: 10, paced: 0 }, now);
    }
    // Each alone has counted 100 s; with the answer to its next piece, each knows of 200 s.
    await settle();
    for (const store of [a, b]) store.charge(account, { free: 0, counted: 0, paced: 0 }, Date.now());
    await settle();
    for (const store of [a, b]) expect(leadOf(store.get(account), Date.now(), settings)).toBeGreaterThan(190);
  });

  it('starts a throttle once, for the replica whose call took, and paces on both', async () => {
    const [a, b] = [replica(), replica()];
    const account = randomUUID();
    const now = Date.now();
    const until = now + 60_000;
    const started = await Promise.all([a.throttle(account, until, now), b.throttle(account, until, now)]);
    expect(started.filter(Boolean)).toHaveLength(1);
    a.charge(account, { free: 0, counted: 0, paced: 30 }, Date.now());
    await settle();
    // 30 s of audio at 1.5x paced on replica a: replica b learns of it with the answer to its
    // next piece, and the piece after that waits for it.
    b.charge(account, { free: 0, counted: 0, paced: 1 }, Date.now());
    await settle();
    expect(b.charge(account, { free: 0, counted: 0, paced: 1 }, Date.now())).toBeGreaterThan(15_000);
  });

  it('forgets an account on every replica when one forgets it', async () => {
    const [a, b] = [replica(), replica()];
    const account = randomUUID();
    a.charge(account, { free: 0, counted: 500, paced: 0 }, Date.now());
    await settle();
    a.forget(account);
    await settle();
    b.charge(account, { free: 0, counted: 1, paced: 0 }, Date.now());
    await settle();
    expect(leadOf(b.get(account), Date.now(), settings)).toBeLessThan(5);
  });
});
