import { randomUUID } from 'node:crypto';
import { hashPassword } from '../features/auth/auth.service.js';
import { hashCost } from '../features/auth/password-hash.js';
import { User, UserRole } from '../features/users/user.entity.js';
import { newDeviceId, type TestApp } from './harness.js';

export const TEST_PASSWORD = 'correct-horse-battery';
/** TEST_PASSWORD's hash, made once per cost (files sharing a worker may run at different costs). */
const cachedHashes = new Map<string, Promise<string>>();

/** Creates a user straight in the database (password TEST_PASSWORD). */
export async function createUser(
  t: TestApp,
  overrides: Partial<Pick<User, 'name' | 'email' | 'role' | 'isLocked'>> = {},
): Promise<User> {
  const cost = JSON.stringify(hashCost());
  if (!cachedHashes.has(cost)) cachedHashes.set(cost, hashPassword(TEST_PASSWORD));
  const em = t.app.orm.em.fork();
  const user = em.create(User, {
    name: overrides.name ?? 'Test User',
    email: overrides.email ?? `user-${randomUUID()}@example.com`,
    role: overrides.role ?? UserRole.user,
    isLocked: overrides.isLocked ?? false,
    passwordHash: await cachedHashes.get(cost)!,
  });
  await em.persist(user).flush();
  return user;
}

export interface Session {
  token: string;
  deviceId: string;
  userId: string;
  sessionId: string;
}

/** Signs in through REST as a person would: the approval round trip, then the approved login. */
export async function signIn(t: Pick<TestApp, 'rest'>, email: string, deviceId = newDeviceId()): Promise<Session> {
  const deviceData = { deviceId, deviceName: 'Chrome on Linux', browser: 'Chrome', os: 'Linux', deviceType: 'Desktop' };
  let res = await t.rest<Record<string, never>>('POST', '/auth/login', { email, password: TEST_PASSWORD, deviceData });
  if (res.body.requiresDeviceApproval) {
    res = await t.rest('POST', '/auth/login', { email, password: TEST_PASSWORD, deviceData, deviceApproved: true });
  }
  const body = res.body as {
    success?: boolean;
    token?: string;
    user?: { id: string };
    deviceSession?: { id: string };
    message?: string;
  };
  if (!body.success || !body.token || !body.user || !body.deviceSession) {
    throw new Error(`sign-in failed (${res.status}): ${body.message ?? JSON.stringify(res.body)}`);
  }
  return { token: body.token, deviceId, userId: body.user.id, sessionId: body.deviceSession.id };
}

export async function createAdminSession(t: TestApp): Promise<Session> {
  const admin = await createUser(t, { role: UserRole.admin, name: 'Admin' });
  return signIn(t, admin.email);
}
