import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { newDeviceId, startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let session: Session;
beforeAll(async () => {
  t = await startTestApp();
  const user = await createUser(t, { name: 'Bad Input' });
  session = await signIn(t, user.email);
});
afterAll(async () => {
  await t?.close();
});

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

async function expectClientError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code } });
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js|stack|select |insert /i);
}

describe('bad input to the auth endpoints', () => {
  it('refuses malformed JSON', async () => {
    await expectClientError(
      await t.rest('POST', '/auth/login', '{"email": "a@b.co", ', { headers: { 'content-type': 'application/json' } }),
      400,
      'BAD_USER_INPUT',
    );
  });

  it('refuses a body that is not JSON', async () => {
    await expectClientError(
      await t.rest('POST', '/auth/login', 'email=a@b.co', { headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it.each([
    [{}, 'Please enter both email and password'],
    [{ email: 'a@b.co' }, 'Please enter both email and password'],
    [{ email: 'nope', password: 'x', deviceData: { deviceId: 'device-123456' } }, 'Please enter a valid email address'],
    [{ email: 'a@b.co', password: 'xxxxxxxx' }, 'deviceData'],
    [
      { email: 'a@b.co', password: 'x'.repeat(10_000), deviceData: { deviceId: 'device-123456' } },
      'Invalid email or password',
    ],
    [{ email: `${'a'.repeat(300)}@b.co`, password: 'x', deviceData: { deviceId: 'device-123456' } }, 'at most 254'],
    [{ email: 'a@b.co', password: 'xxxxxxxx', deviceData: { deviceId: 'x'.repeat(500) } }, 'deviceId'],
    [{ email: 123, password: ['x'], deviceData: 'no' }, 'Please enter both email and password'],
  ])('refuses login body %# with a clear message', async (body, message) => {
    const res = await t.rest<{ message: string }>('POST', '/auth/login', body);
    await expectClientError(res, 400, 'BAD_USER_INPUT');
    expect(res.body.message).toContain(message);
  });

  it('refuses over-long profile fields and changes nothing', async () => {
    const res = await t.rest(
      'PUT',
      '/auth/updatedetails',
      { name: 'n'.repeat(101), email: 'fine@example.com' },
      session,
    );
    await expectClientError(res, 400, 'BAD_USER_INPUT');
    const me = await t.rest<{ data: { name: string } }>('GET', '/auth/me', undefined, session);
    expect(me.body.data.name).toBe('Bad Input');
  });

  it('refuses a body over 100 kB', async () => {
    const res = await t.rest('POST', '/auth/register', { name: 'x'.repeat(200_000) });
    await expectClientError(res, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('bad tokens', () => {
  const call = (token: string, deviceId = session.deviceId) =>
    t.rest('GET', '/auth/me', undefined, { token, deviceId });

  it('refuses a token with alg none', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: session.userId, sid: session.sessionId, iss: 'protected-audio-library' })}.`;
    await expectClientError(await call(token), 401, 'UNAUTHENTICATED');
  });

  it('refuses a token signed with another key', async () => {
    const token = await new SignJWT({ sid: session.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.userId)
      .setIssuer('protected-audio-library')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('an-attacker-key-an-attacker-key-an-attacker-key'));
    await expectClientError(await call(token), 401, 'UNAUTHENTICATED');
  });

  it('refuses an expired token with the expiry message', async () => {
    const token = await new SignJWT({ sid: session.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.userId)
      .setIssuer('protected-audio-library')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(t.config.secret));
    const res = await call(token);
    await expectClientError(res, 401, 'UNAUTHENTICATED');
    expect(res.body).toMatchObject({ message: 'Token has expired' });
  });

  it('refuses garbage and a token presented from another device id', async () => {
    await expectClientError(await call('not.a.token'), 401, 'UNAUTHENTICATED');
    await expectClientError(await call(session.token, newDeviceId()), 401, 'UNAUTHENTICATED');
    await expectClientError(await call(session.token, ''), 401, 'UNAUTHENTICATED');
  });

  it('refuses the token of a session that was logged out', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    expect((await t.rest('POST', '/auth/logout', undefined, s)).status).toBe(200);
    await expectClientError(await t.rest('GET', '/auth/me', undefined, s), 401, 'UNAUTHENTICATED');
  });

  it('answers 403 to a signed-in user on an admin route', async () => {
    const res = await t.rest('PATCH', `/admin/users/${session.userId}/unlock`, undefined, session);
    await expectClientError(res, 403, 'FORBIDDEN');
  });
});

describe('audit log', () => {
  it('records security events, newest first, for administrators only', async () => {
    const admin = await createAdminSession(t);
    const query = '{ auditLog(limit: 5) { total items { action email ipAddress deviceId createdAt } } }';
    const res = await t.gql<{ auditLog: { total: number; items: { action: string; createdAt: string }[] } }>(
      query,
      {},
      admin,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.auditLog.total).toBeGreaterThan(3);
    expect(res.data?.auditLog.items[0]).toMatchObject({ action: 'login.success', deviceId: admin.deviceId });
    const times = res.data!.auditLog.items.map((i) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const denied = await t.gql(query, {}, session);
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});
