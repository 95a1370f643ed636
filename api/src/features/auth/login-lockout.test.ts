import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDeviceId, startTestApp, type TestApp } from '../../test/harness.js';
import { createUser, TEST_PASSWORD } from '../../test/factories.js';
import { lockAfter } from './rate-limiter.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const deviceData = (deviceId: string) => ({ deviceId, deviceName: 'Test device', browser: 'Chrome', os: 'Linux' });

/** A sign-in attempt from a device, sending the cookies that device holds. */
function attempt(email: string, password: string, deviceId: string, cookie = '') {
  return t.rest<{ success?: boolean; token?: string; error?: { code: string } }>(
    'POST',
    '/auth/login',
    { email, password, deviceData: deviceData(deviceId), deviceApproved: true },
    { headers: cookie ? { cookie } : {} },
  );
}

/** The known-device cookie a sign-in answer set, as a browser would send it back. */
function knownDeviceCookie(headers: Headers): string {
  const set = headers.getSetCookie().find((c) => c.startsWith('kd_'));
  if (!set) throw new Error('no known-device cookie was set');
  expect(set).toMatch(/HttpOnly/i);
  expect(set).toMatch(/SameSite=Strict/i);
  return set.split(';')[0];
}

describe('sign-in lockout', () => {
  it.each([5, 50])(
    'locks out an attacker after %i wrong passwords but never the owner on their known device',
    async (guesses) => {
      const user = await createUser(t);
      const ownDevice = newDeviceId();
      const first = await attempt(user.email, TEST_PASSWORD, ownDevice);
      expect(first.body.success).toBe(true);
      const cookie = knownDeviceCookie(first.headers);

      const attacker = newDeviceId();
      const statuses: number[] = [];
      for (let i = 0; i < guesses; i++) statuses.push((await attempt(user.email, 'wrong-password', attacker)).status);
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.slice(5).every((s) => s === 429)).toBe(true);

      // The attacker is locked out, even with the right password, with the owner's (public) device
      // id, or with a cookie of the right name that they made up.
      expect((await attempt(user.email, TEST_PASSWORD, attacker)).status).toBe(429);
      expect((await attempt(user.email, TEST_PASSWORD, ownDevice)).status).toBe(429);
      const forged = `${cookie.split('=')[0]}=${Date.now()}.${'A'.repeat(43)}`;
      expect((await attempt(user.email, TEST_PASSWORD, ownDevice, forged)).status).toBe(429);
      // The owner's device holds the proof, and signs in.
      const owner = await attempt(user.email, TEST_PASSWORD, ownDevice, cookie);
      expect(owner.status).toBe(200);
      expect(owner.body).toMatchObject({ success: true });
      expect(owner.body.token).toBeTruthy();
    },
  );

  it("gives a known device a run of its own: its own wrong passwords lock it, not the account's other devices", async () => {
    const user = await createUser(t);
    const ownDevice = newDeviceId();
    const cookie = knownDeviceCookie((await attempt(user.email, TEST_PASSWORD, ownDevice)).headers);
    for (let i = 0; i < 5; i++) {
      expect((await attempt(user.email, 'wrong-password', ownDevice, cookie)).status).toBe(401);
    }
    expect((await attempt(user.email, TEST_PASSWORD, ownDevice, cookie)).status).toBe(429);
    // The proof is bound to the account: it makes no other account's device known.
    const other = await createUser(t);
    expect((await attempt(other.email, TEST_PASSWORD, newDeviceId(), cookie)).status).toBe(200);
  });
});

describe('lockAfter', () => {
  it('locks every fifth wrong password, each lock twice the last, up to 16 hours', () => {
    const minutes = [4, 5, 9, 10, 15, 35, 40, 100].map((n) => {
      const ms = lockAfter(n);
      return ms === null ? null : ms / 60_000;
    });
    expect(minutes).toEqual([null, 15, null, 30, 60, 960, 960, 960]);
  });
});
