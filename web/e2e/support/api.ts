import { randomUUID } from 'node:crypto';
import { baseUrl } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, USER_PASSWORD } from './constants';

/** Test set-up through the public REST API, as an integrator would do it. */
export interface ApiSession {
  token: string;
  deviceId: string;
}

export async function rest<T = Record<string, unknown>>(
  method: string,
  route: string,
  body?: unknown,
  session?: ApiSession,
): Promise<{ status: number; body: T }> {
  const isForm = body instanceof FormData;
  const res = await fetch(`${baseUrl()}/api/v1${route}`, {
    method,
    headers: {
      ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
      ...(session ? { authorization: `Bearer ${session.token}`, 'x-device-id': session.deviceId } : {}),
    },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

export async function apiSignIn(email: string, password: string): Promise<ApiSession> {
  const deviceId = `e2e-api-${randomUUID()}`;
  const payload = { email, password, deviceData: { deviceId, deviceName: 'E2E set-up' }, deviceApproved: true };
  const res = await rest<{ success: boolean; token?: string; message?: string }>('POST', '/auth/login', payload);
  if (!res.body.success || !res.body.token) throw new Error(`API sign-in failed: ${res.body.message}`);
  return { token: res.body.token, deviceId };
}

let adminSession: Promise<ApiSession> | null = null;
export function adminApi(): Promise<ApiSession> {
  adminSession ??= apiSignIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  return adminSession;
}

/** Creates an ordinary user through the admin API; each test gets its own. */
export async function createUser(
  name = 'Test Listener',
): Promise<{ id: string; email: string; password: string; name: string }> {
  const email = `listener-${randomUUID().slice(0, 8)}@e2e.test`;
  const admin = await adminApi();
  const res = await rest<{ data: { id: string } }>(
    'POST',
    '/admin/users',
    { name, email, password: USER_PASSWORD, role: 'user' },
    admin,
  );
  if (res.status >= 300) throw new Error(`could not create user: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, email, password: USER_PASSWORD, name };
}

/** A second administrator, for flows that need an account exempt from the device lock. */
export async function createAdmin(
  name = 'Second Admin',
): Promise<{ id: string; email: string; password: string; name: string }> {
  const email = `admin-${randomUUID().slice(0, 8)}@e2e.test`;
  const res = await rest<{ data: { id: string } }>(
    'POST',
    '/admin/users',
    { name, email, password: USER_PASSWORD, role: 'admin' },
    await adminApi(),
  );
  if (res.status >= 300) throw new Error(`could not create admin: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, email, password: USER_PASSWORD, name };
}
