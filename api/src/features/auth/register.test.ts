import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDeviceId, startTestApp, type TestApp } from '../../test/harness.js';
import { POLICY_MESSAGE } from './login.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const deviceData = (deviceId: string) => ({ deviceId, browser: 'Chrome', os: 'Linux', deviceName: 'Chrome on Linux' });
const newAccount = () => ({
  name: 'New Listener',
  email: `new-${randomUUID().slice(0, 8)}@test.local`,
  password: 'a-long-password',
});

describe('registration and the single-device policy', () => {
  it('asks for approval first and creates nothing; the approved repeat opens the device session', async () => {
    const account = newAccount();
    const deviceId = newDeviceId();
    const first = await t.rest('POST', '/auth/register', { ...account, deviceData: deviceData(deviceId) });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: false,
      requiresDeviceApproval: true,
      message: POLICY_MESSAGE,
      token: null,
    });
    // No account yet: signing in knows nothing of it.
    const early = await t.rest('POST', '/auth/login', {
      email: account.email,
      password: account.password,
      deviceData: deviceData(deviceId),
      deviceApproved: true,
    });
    expect(early.status).toBe(401);

    const approved = await t.rest<Record<string, unknown>>('POST', '/auth/register', {
      ...account,
      deviceData: deviceData(deviceId),
      deviceApproved: true,
    });
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({
      success: true,
      requiresDeviceApproval: false,
      user: { email: account.email },
    });
    const me = await t.rest('GET', '/auth/me', undefined, { token: approved.body.token as string, deviceId });
    expect(me.status).toBe(200);
  });

  it('answers the same over GraphQL', async () => {
    const account = newAccount();
    const deviceId = newDeviceId();
    const mutation = `mutation ($input: RegisterInput!) { register(input: $input) { success requiresDeviceApproval token user { email } } }`;
    const asked = await t.gql<{ register: Record<string, unknown> }>(mutation, {
      input: { ...account, deviceData: deviceData(deviceId) },
    });
    expect(asked.data?.register).toEqual({ success: false, requiresDeviceApproval: true, token: null, user: null });
    const done = await t.gql<{ register: Record<string, unknown> }>(mutation, {
      input: { ...account, deviceData: deviceData(deviceId), deviceApproved: true },
    });
    expect(done.data?.register).toMatchObject({
      success: true,
      requiresDeviceApproval: false,
      user: { email: account.email },
    });
  });
});
