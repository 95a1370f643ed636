import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../test/factories.js';
import { postFrom } from '../../test/from-address.js';
import { newDeviceId, startTestApp, type TestApp } from '../../test/harness.js';

const LIMIT = 30;
const RATE_LIMITED = 'Too many login attempts. Please try again later.';

// No TRUST_PROXY: no proxy is trusted, as by default. Each test signs in from loopback addresses of
// its own (127.0.0.0/8 all reach the app), so that the app sees distinct clients.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
});
afterAll(async () => {
  await t?.close();
});

interface Answer {
  success?: boolean;
  message?: string;
  requiresDeviceApproval?: boolean;
}

function signInFrom(
  from: string,
  input: { email: string; password: string; deviceId?: string; deviceApproved?: boolean },
  headers: Record<string, string> = {},
) {
  const { email, password, deviceId = newDeviceId(), deviceApproved = true } = input;
  const body = { email, password, deviceData: { deviceId, deviceName: 'Test device' }, deviceApproved };
  return postFrom<Answer>(from, `${t.url}/api/v1/auth/login`, body, headers);
}

/** A wrong password at an email with no account: a fresh run each time, so only the rate limits refuse. */
const guess = () => ({ email: `nobody-${randomUUID()}@example.com`, password: 'wrong-password' });

// Every allowed guess runs a full password check (argon2), some thirty of them a test.
describe('sign-in limits per client address', { timeout: 90_000 }, () => {
  it('ignore a forged X-Forwarded-For from a client that is no trusted proxy: rotating it does not help', async () => {
    const answers = [];
    for (let i = 0; i <= LIMIT; i++) {
      answers.push(await signInFrom('127.0.0.2', guess(), { 'x-forwarded-for': `203.0.113.${i + 1}` }));
    }
    expect(answers.slice(0, LIMIT).map((a) => a.status)).toEqual(Array(LIMIT).fill(401));
    expect(answers[LIMIT].status).toBe(429);
    expect(answers[LIMIT].body.message).toBe(RATE_LIMITED);
  });

  it('do not hold back the client whose address a forged X-Forwarded-For claims', async () => {
    const victim = await createUser(t);
    for (let i = 0; i <= LIMIT; i++) await signInFrom('127.0.0.3', guess(), { 'x-forwarded-for': '127.0.0.4' });
    expect((await signInFrom('127.0.0.3', guess())).status).toBe(429);
    const own = await signInFrom('127.0.0.4', { email: victim.email, password: TEST_PASSWORD });
    expect(own.status).toBe(200);
    expect(own.body.success).toBe(true);
  });
});

describe('sign-in limits per account', { timeout: 90_000 }, () => {
  it('refuse the account past the limit, from however many addresses, and no other account', async () => {
    const user = await createUser(t);
    // The right password from new devices, unapproved: answers that ask for approval and lock nothing.
    const attempt = (from: string) =>
      signInFrom(from, { email: user.email, password: TEST_PASSWORD, deviceApproved: false });
    for (let i = 0; i < LIMIT; i++) {
      const answer = await attempt(`127.0.1.${(i % 3) + 1}`);
      expect(answer.status).toBe(200);
      expect(answer.body.requiresDeviceApproval).toBe(true);
    }
    const refused = await attempt('127.0.1.4');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(RATE_LIMITED);
    // The address itself is not held back: another account signs in from it.
    const other = await createUser(t);
    expect((await signInFrom('127.0.1.4', { email: other.email, password: TEST_PASSWORD })).status).toBe(200);
  });
});

describe('a device proving it signed in to the account before (the known-device cookie)', { timeout: 90_000 }, () => {
  it('signs in while its address and its account are hammered, and has a bounded count of its own', async () => {
    const owner = await createUser(t);
    const device = newDeviceId();
    const first = await signInFrom('127.0.2.1', { email: owner.email, password: TEST_PASSWORD, deviceId: device });
    const cookie = first.cookies.find((c) => c.startsWith('kd_'));
    expect(cookie).toBeDefined();
    const own = (password: string) =>
      signInFrom('127.0.2.1', { email: owner.email, password, deviceId: device }, { cookie: cookie! });

    // Someone behind the same address guesses at the account until the limits of both are used up.
    for (let i = 0; i < LIMIT; i++) await signInFrom('127.0.2.1', { email: owner.email, password: 'wrong-password' });
    const byAddress = await signInFrom('127.0.2.1', guess());
    expect([byAddress.status, byAddress.body.message]).toEqual([429, RATE_LIMITED]);
    const byAccount = await signInFrom('127.0.2.2', { email: owner.email, password: TEST_PASSWORD });
    expect([byAccount.status, byAccount.body.message]).toEqual([429, RATE_LIMITED]);

    const signedIn = await own(TEST_PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.success).toBe(true);

    // Its own attempts count too (its wrong passwords soon lock it; the limit refuses past LIMIT).
    const answers = [];
    for (let i = 1; i < LIMIT; i++) answers.push(await own('wrong-password'));
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    expect(answers.some((a) => a.body.message === RATE_LIMITED)).toBe(false);
    const over = await own(TEST_PASSWORD);
    expect([over.status, over.body.message]).toEqual([429, RATE_LIMITED]);
  });
});
