import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asKey, newKey } from '../../test/api-keys.js';
import { createTestDatabase } from '../../test/database.js';
import { createAdminSession, createUser, signIn, TEST_PASSWORD } from '../../test/factories.js';
import { postFrom } from '../../test/from-address.js';
import { newDeviceId, startTestApp, type TestApp } from '../../test/harness.js';

// Two API processes' worth of app sharing one PostgreSQL and one Redis, as replicas behind a load
// balancer would: every limit must count once for both. Needs Redis (CI has it); skipped without.
const redisUrl = process.env.REDIS_TEST_URL;
const postgresUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const LIMIT = 30;
const RATE_LIMITED = 'Too many login attempts. Please try again later.';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  if (!redisUrl) return;
  db = await createTestDatabase(postgresUrl);
  // One prefix for both: they share their counters, and no other test file's.
  const env = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `pal-test-${randomUUID()}`, LOGIN_RATE_LIMIT_PER_MINUTE: '30' };
  a = await startTestApp({ databaseUrl: db.url, env });
  b = await startTestApp({ databaseUrl: db.url, env });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

interface Answer {
  success?: boolean;
  message?: string;
}

/** A sign-in attempt at instance `t`, from loopback address `from`. */
function signInFrom(
  t: TestApp,
  from: string,
  input: { email: string; password: string; deviceId?: string },
  cookie?: string,
) {
  const { email, password, deviceId = newDeviceId() } = input;
  const body = { email, password, deviceData: { deviceId, deviceName: 'Test device' }, deviceApproved: true };
  return postFrom<Answer>(from, `${t.url}/api/v1/auth/login`, body, cookie ? { cookie } : {});
}

const both = () => [a, b];
const guess = () => ({ email: `nobody-${randomUUID()}@example.com`, password: 'wrong-password' });

describe.skipIf(!redisUrl)('limits across instances sharing Redis', { timeout: 120_000 }, () => {
  it('count sign-ins from one address once: 45 spread over two instances meet the limit of 30', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await signInFrom(both()[i % 2], '127.0.3.1', guess())).status);
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(statuses.slice(LIMIT)).toEqual(Array(45 - LIMIT).fill(429));
  });

  it('lock an email without an account at the fifth wrong password, wherever each was sent', async () => {
    const { email, password } = guess();
    for (let i = 0; i < 5; i++)
      expect((await signInFrom(both()[i % 2], '127.0.3.2', { email, password })).status).toBe(401);
    for (const t of both()) {
      const answer = await signInFrom(t, '127.0.3.2', { email, password });
      expect(answer.status).toBe(429);
      expect(answer.body.message).toMatch(/^Too many failed login attempts\. Try again in 15 minute\(s\)\.$/);
    }
  });

  it('lock a known device at its fifth wrong password over both, and lift it by an unlock on either', async () => {
    const user = await createUser(a);
    const device = newDeviceId();
    const first = await signInFrom(a, '127.0.3.3', { email: user.email, password: TEST_PASSWORD, deviceId: device });
    const cookie = first.cookies.find((c) => c.startsWith('kd_'));
    expect(cookie).toBeDefined();
    const own = (t: TestApp, password: string) =>
      signInFrom(t, '127.0.3.3', { email: user.email, password, deviceId: device }, cookie);
    for (let i = 0; i < 5; i++) expect((await own(both()[i % 2], 'wrong-password')).status).toBe(401);
    expect((await own(a, TEST_PASSWORD)).status).toBe(429);
    expect((await own(b, TEST_PASSWORD)).status).toBe(429);

    const admin = await createAdminSession(b);
    expect((await b.rest('PATCH', `/admin/users/${user.id}/unlock`, undefined, admin)).status).toBe(200);
    const again = await own(a, TEST_PASSWORD);
    expect(again.status).toBe(200);
    expect(again.body.success).toBe(true);
  });

  it('let a known device sign in on either while its address and account are used up over both', async () => {
    const owner = await createUser(a);
    const device = newDeviceId();
    const first = await signInFrom(b, '127.0.3.4', { email: owner.email, password: TEST_PASSWORD, deviceId: device });
    const cookie = first.cookies.find((c) => c.startsWith('kd_'));
    for (let i = 0; i < LIMIT; i++) {
      await signInFrom(both()[i % 2], '127.0.3.4', { email: owner.email, password: 'wrong-password' });
    }
    for (const t of both()) {
      const refused = await signInFrom(t, '127.0.3.5', { email: owner.email, password: TEST_PASSWORD });
      expect([refused.status, refused.body.message]).toEqual([429, RATE_LIMITED]);
    }
    const own = await signInFrom(
      a,
      '127.0.3.4',
      { email: owner.email, password: TEST_PASSWORD, deviceId: device },
      cookie,
    );
    expect(own.status).toBe(200);
  });

  it("count an API key's requests once, with its RateLimit headers, over both", async () => {
    const admin = await createAdminSession(a);
    const reader = await createUser(a);
    const key = await newKey(a, admin, reader.id, ['LIBRARY_READ'], { rateLimitPerMinute: 3 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await both()[i % 2].rest('GET', '/files', undefined, asKey(key.secret)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    expect(Number(answers[3].headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('count email changes once over both', async () => {
    const user = await createUser(a);
    const session = await signIn(a, user.email);
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await both()[i % 2].rest(
        'PUT',
        '/auth/updatedetails',
        { name: 'Mover', email: `moved-${i}-${user.email}` },
        session,
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
