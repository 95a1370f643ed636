import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, TEST_PASSWORD, createAdminSession } from '../../test/factories.js';
import { newDeviceId, startTestApp, type TestApp } from '../../test/harness.js';
import { subscribeSecurityEvents } from '../../test/subscriptions.js';
import { LOCK_MESSAGE, POLICY_MESSAGE } from './login.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const deviceData = (deviceId: string) => ({ deviceId, browser: 'Chrome', os: 'Linux', deviceName: 'Chrome on Linux' });

describe('login and the single-device policy', () => {
  it('asks for approval on a first device, then signs in on the approved repeat', async () => {
    const user = await createUser(t);
    const deviceId = newDeviceId();
    const first = await t.rest('POST', '/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
      deviceData: deviceData(deviceId),
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: false,
      requiresDeviceApproval: true,
      message: POLICY_MESSAGE,
      token: null,
    });

    const approved = await t.rest<Record<string, unknown>>('POST', '/auth/login', {
      email: user.email.toUpperCase(),
      password: TEST_PASSWORD,
      deviceData: deviceData(deviceId),
      deviceApproved: true,
    });
    expect(approved.body).toMatchObject({ success: true, requiresDeviceApproval: false });
    expect(approved.body.warnings).toEqual([expect.objectContaining({ type: 'new_device' })]);
    expect(JSON.stringify(approved.body)).not.toContain('passwordHash');

    const me = await t.rest('GET', '/auth/me', undefined, { token: approved.body.token as string, deviceId });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ success: true, data: { email: user.email, role: 'user', isAdmin: false } });

    const gqlMe = await t.gql<{ me: { email: string; sessionCount: number; hasMultipleSessions: boolean } }>(
      '{ me { email sessionCount hasMultipleSessions } }',
      {},
      { token: approved.body.token as string, deviceId },
    );
    expect(gqlMe.errors).toBeUndefined();
    expect(gqlMe.data?.me).toEqual({ email: user.email, sessionCount: 1, hasMultipleSessions: false });

    // The same device signs in again without approval.
    const again = await t.rest('POST', '/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
      deviceData: deviceData(deviceId),
    });
    expect(again.body).toMatchObject({ success: true });
  });

  it('signs in again on a known device with no approval and no new-device warning', async () => {
    const user = await createUser(t);
    const deviceId = newDeviceId();
    const login = (device: string, cookie = '', approved = false) =>
      t.rest<{ success: boolean; requiresDeviceApproval: boolean; token: string | null; warnings: unknown[] }>(
        'POST',
        '/auth/login',
        { email: user.email, password: TEST_PASSWORD, deviceData: deviceData(device), deviceApproved: approved },
        { headers: cookie ? { cookie } : {} },
      );
    const first = await login(deviceId, '', true);
    expect(first.body.warnings).toEqual([expect.objectContaining({ type: 'new_device' })]);
    const proof = first.headers
      .getSetCookie()
      .find((c) => c.startsWith('kd_'))
      ?.split(';')[0];
    expect(proof).toBeTruthy();
    await t.rest('POST', '/auth/logout', undefined, { token: first.body.token as string, deviceId });

    // Signed out, the same browser (holding its device-proof cookie) signs in without the policy dialog.
    const again = await login(deviceId, proof);
    expect(again.body).toMatchObject({ success: true, requiresDeviceApproval: false, warnings: [] });
    await t.rest('POST', '/auth/logout', undefined, { token: again.body.token as string, deviceId });

    // Without the cookie, or with it from another device id, the device is new: approval first.
    expect((await login(deviceId)).body).toMatchObject({ success: false, requiresDeviceApproval: true });
    expect((await login(newDeviceId(), proof)).body).toMatchObject({ success: false, requiresDeviceApproval: true });
  });

  it('locks the account when a further device logs in, pushes the lock live and rejects the old token', async () => {
    const user = await createUser(t);
    const first = await signIn(t, user.email);
    const stream = await subscribeSecurityEvents(t.url, first);
    try {
      const second = await t.rest('POST', '/auth/login', {
        email: user.email,
        password: TEST_PASSWORD,
        deviceData: deviceData(newDeviceId()),
        deviceApproved: true,
      });
      expect(second.status).toBe(403);
      expect(second.body).toMatchObject({ success: false, message: LOCK_MESSAGE, error: { code: 'ACCOUNT_LOCKED' } });

      const event = await stream.next();
      expect(event.type).toBe('DEVICE_LOCKED');

      const me = await t.rest('GET', '/auth/me', undefined, first);
      expect(me.status).toBe(401);
      const devices = await t.rest('GET', '/devices', undefined, first);
      expect(devices.status).toBe(401);
      const gql = await t.gql('{ me { id } }', {}, first);
      expect(gql.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');

      // Even the original device cannot sign in until an administrator unlocks.
      const retry = await t.rest('POST', '/auth/login', {
        email: user.email,
        password: TEST_PASSWORD,
        deviceData: deviceData(first.deviceId),
      });
      expect(retry.status).toBe(403);
      expect(retry.body).toMatchObject({ error: { code: 'ACCOUNT_LOCKED' } });

      const admin = await createAdminSession(t);
      const unlock = await t.rest('PATCH', `/admin/users/${user.id}/unlock`, undefined, admin);
      expect(unlock.status).toBe(200);
      expect(unlock.body).toMatchObject({
        message: `User ${user.email} has been unlocked successfully`,
        data: { isLocked: false, lockUntil: null },
      });

      const afterUnlock = await signIn(t, user.email, first.deviceId);
      expect((await t.rest('GET', '/auth/me', undefined, afterUnlock)).status).toBe(200);
      // Same device, same session row, but a new session: the token from before the lock stays dead.
      expect(afterUnlock.sessionId).toBe(first.sessionId);
      expect((await t.rest('GET', '/auth/me', undefined, first)).status).toBe(401);
    } finally {
      await stream.close();
    }
  });

  it('refuses a wrong password with a clear message and locks temporarily after repeated failures', async () => {
    const user = await createUser(t);
    const attempt = (password: string) =>
      t.rest('POST', '/auth/login', { email: user.email, password, deviceData: deviceData(newDeviceId()) });
    for (let i = 0; i < 5; i++) {
      const res = await attempt('wrong-password');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        success: false,
        message: 'Invalid email or password',
        error: { code: 'UNAUTHENTICATED' },
      });
    }
    const locked = await attempt(TEST_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });

    const admin = await createAdminSession(t);
    await t.rest('PATCH', `/admin/users/${user.id}/unlock`, undefined, admin);
    expect((await attempt(TEST_PASSWORD)).body).toMatchObject({ requiresDeviceApproval: true });
  });

  it('counts wrong passwords sent all at once, so a burst of guesses locks sign-in too', async () => {
    const user = await createUser(t);
    const guess = () =>
      t.rest('POST', '/auth/login', {
        email: user.email,
        password: 'wrong-password',
        deviceData: deviceData(newDeviceId()),
      });
    const statuses = (await Promise.all(Array.from({ length: 8 }, guess))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(5);
    const right = await t.rest('POST', '/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
      deviceData: deviceData(newDeviceId()),
    });
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
  });

  it('answers an unknown email exactly as a wrong password', async () => {
    const res = await t.rest('POST', '/auth/login', {
      email: 'nobody@example.com',
      password: 'whatever1',
      deviceData: deviceData(newDeviceId()),
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: 'Invalid email or password' });
  });

  it('locks a run of guesses at an unknown email as at an account, so the answers do not tell them apart', async () => {
    const user = await createUser(t);
    const answers = async (email: string) => {
      const seen = [];
      for (let i = 0; i < 7; i++) {
        const res = await t.rest('POST', '/auth/login', {
          email,
          password: 'wrong-password',
          deviceData: deviceData(newDeviceId()),
        });
        seen.push([res.status, (res.body as { message: string }).message]);
      }
      return seen;
    };
    const forAccount = await answers(user.email);
    expect(forAccount.map(([status]) => status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(await answers(`nobody-${user.email}`)).toEqual(forAccount);
  });
});

describe('devices', () => {
  it('deactivates the other devices at once and tells them', async () => {
    const admin = await createUser(t, { role: 'admin' as never });
    const a = await signIn(t, admin.email);
    const b = await signIn(t, admin.email);
    const c = await signIn(t, admin.email);
    const streamB = await subscribeSecurityEvents(t.url, b);
    try {
      const list = await t.rest<{ data: { isCurrent: boolean; deviceId: string }[] }>('GET', '/devices', undefined, a);
      expect(list.body.data).toHaveLength(3);
      expect(list.body.data.filter((d) => d.isCurrent).map((d) => d.deviceId)).toEqual([a.deviceId]);

      const res = await t.rest('DELETE', '/devices/others', undefined, a);
      expect(res.body).toMatchObject({ success: true, deactivatedCount: 2 });
      expect((await streamB.next()).type).toBe('FORCED_LOGOUT');
      expect((await t.rest('GET', '/auth/me', undefined, b)).status).toBe(401);
      expect((await t.rest('GET', '/auth/me', undefined, c)).status).toBe(401);
      expect((await t.rest('GET', '/auth/me', undefined, a)).status).toBe(200);
    } finally {
      await streamB.close();
    }
  });

  it('deactivates one device by its device id', async () => {
    const admin = await createUser(t, { role: 'admin' as never });
    const a = await signIn(t, admin.email);
    const b = await signIn(t, admin.email);
    const res = await t.gql('mutation($id: String!) { deactivateDevice(deviceId: $id) }', { id: b.deviceId }, a);
    expect(res.data).toEqual({ deactivateDevice: true });
    expect((await t.rest('GET', '/auth/me', undefined, b)).status).toBe(401);
    const self = await t.rest('DELETE', `/devices/${a.deviceId}`, undefined, a);
    expect(self.status).toBe(400);
    // Shaped almost like a session id, but not a uuid: simply no such device.
    for (const odd of ['-'.repeat(36), `${'0'.repeat(32)}abcd`]) {
      expect((await t.rest('DELETE', `/devices/${odd}`, undefined, a)).status).toBe(404);
    }
  });

  it('lets an administrator list and terminate a user session, signing that device out live', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    const stream = await subscribeSecurityEvents(t.url, s);
    const admin = await createAdminSession(t);
    try {
      const list = await t.rest<{ data: { id: string }[] }>(
        'GET',
        `/admin/users/${user.id}/sessions`,
        undefined,
        admin,
      );
      expect(list.body.data.map((x) => x.id)).toEqual([s.sessionId]);
      const forbidden = await t.rest('GET', `/admin/users/${user.id}/sessions`, undefined, s);
      expect(forbidden.status).toBe(403);
      const del = await t.rest('DELETE', `/admin/users/${user.id}/sessions/${s.sessionId}`, undefined, admin);
      expect(del.body).toMatchObject({ success: true, message: 'Session terminated successfully' });
      expect((await stream.next()).type).toBe('SESSION_TERMINATED');
      expect((await t.rest('GET', '/auth/me', undefined, s)).status).toBe(401);
    } finally {
      await stream.close();
    }
  });
});

describe('rate limiting per address', () => {
  it('refuses logins beyond the per-minute limit with RATE_LIMITED', async () => {
    const limited = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.rest('POST', '/auth/login', {
          email: 'x@example.com',
          password: 'whatever1',
          deviceData: deviceData(newDeviceId()),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('own details', () => {
  it('limits email changes per account, so a signed-in user cannot probe which addresses have accounts', async () => {
    const taken = await createUser(t);
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    const change = (email: string) => t.rest('PUT', '/auth/updatedetails', { name: 'Prober', email }, session);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await change(i % 2 ? taken.email : `free-${i}-${user.email}`)).status);
    expect(statuses).toEqual([200, 409, 200, 409, 200]);
    const limited = await change(taken.email);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, message: 'Too many email changes. Please try again later.' });
    // The name alone may still change.
    const renamed = await t.rest(
      'PUT',
      '/auth/updatedetails',
      { name: 'Renamed', email: `free-4-${user.email}` },
      session,
    );
    expect(renamed.status).toBe(200);
  });
});
