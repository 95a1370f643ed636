import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, TEST_PASSWORD, type Session } from '../../test/factories.js';
import { newDeviceId, startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
});

function attempt(email: string, password: string, deviceId: string, cookie = '') {
  return t.rest<{ success?: boolean }>(
    'POST',
    '/auth/login',
    { email, password, deviceData: { deviceId, deviceName: 'Test device' }, deviceApproved: true },
    { headers: cookie ? { cookie } : {} },
  );
}

/** A user whose own known device has locked itself with five wrong passwords. */
async function lockedKnownDevice() {
  const user = await createUser(t);
  const device = newDeviceId();
  const first = await attempt(user.email, TEST_PASSWORD, device);
  const cookie = (first.headers.getSetCookie().find((c) => c.startsWith('kd_')) ?? '').split(';')[0];
  expect(cookie).not.toBe('');
  for (let i = 0; i < 5; i++) expect((await attempt(user.email, 'wrong-password', device, cookie)).status).toBe(401);
  expect((await attempt(user.email, TEST_PASSWORD, device, cookie)).status).toBe(429);
  return { user, device, cookie };
}

describe("an administrator's unlock", () => {
  it("lifts a known device's sign-in lock, not only the account's", async () => {
    const { user, device, cookie } = await lockedKnownDevice();
    const unlock = await t.rest('PATCH', `/admin/users/${user.id}/unlock`, undefined, admin);
    expect(unlock.status).toBe(200);
    const again = await attempt(user.email, TEST_PASSWORD, device, cookie);
    expect(again.status).toBe(200);
    expect(again.body.success).toBe(true);
  });

  it('does the same when the unlock is an edit of the user (isLocked: false)', async () => {
    const { user, device, cookie } = await lockedKnownDevice();
    const edit = await t.gql<{ updateUser: { isLocked: boolean } }>(
      'mutation ($id: ID!) { updateUser(id: $id, input: { isLocked: false }) { isLocked } }',
      { id: user.id },
      admin,
    );
    expect(edit.errors).toBeUndefined();
    expect((await attempt(user.email, TEST_PASSWORD, device, cookie)).status).toBe(200);
  });

  it("leaves other accounts' device locks alone", async () => {
    const first = await lockedKnownDevice();
    const second = await lockedKnownDevice();
    await t.rest('PATCH', `/admin/users/${first.user.id}/unlock`, undefined, admin);
    expect((await attempt(second.user.email, TEST_PASSWORD, second.device, second.cookie)).status).toBe(429);
  });
});
