import { createAdminSession, createUser, signIn, type Session } from '../factories.js';
import type { TestApp } from '../harness.js';
import { changedTables, dataSnapshot } from './db-snapshot.js';
import { expectSafeResponse, rawRequest, type RawRequest, type RawResponse } from './response-checks.js';

export const personas = ['anonymous', 'user', 'admin'] as const;
export type Persona = (typeof personas)[number];

/** One caller of each kind: nobody, a plain user, an administrator. */
export async function signInPersonas(t: TestApp): Promise<Record<Persona, Session | null>> {
  const user = await createUser(t, { name: 'Hostile user' });
  return { anonymous: null, user: await signIn(t, user.email), admin: await createAdminSession(t) };
}

export function credentials(session: Session | null): Record<string, string> {
  return session ? { authorization: `Bearer ${session.token}`, 'x-device-id': session.deviceId } : {};
}

/** Sends one request and checks what every hostile request must get back. */
export async function sendSafely(t: TestApp, req: RawRequest, label: string): Promise<RawResponse> {
  const res = await rawRequest(t.url, req);
  expectSafeResponse(res, `${req.method} ${req.path.slice(0, 120)} [${label}]`);
  return res;
}

/** Runs `work` and fails unless the database is exactly as before, for work that was all refused. */
export async function expectNoDataChange(t: TestApp, label: string, work: () => Promise<boolean>): Promise<void> {
  const before = await dataSnapshot(t.app.orm);
  const anyAccepted = await work();
  if (anyAccepted) return;
  const after = await dataSnapshot(t.app.orm);
  if (changedTables(before, after).length > 0) {
    throw new Error(`${label}: refused requests changed tables ${changedTables(before, after).join(', ')}`);
  }
}

/** Runs the tasks a few at a time: fast, yet gentle on the embedded database's one connection. */
export async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

/** Every string under `key` anywhere in a JSON value. */
export function valuesOfKey(value: unknown, key: string): unknown[] {
  if (Array.isArray(value)) return value.flatMap((v) => valuesOfKey(v, key));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [...(k === key ? [v] : []), ...valuesOfKey(v, key)]);
  }
  return [];
}
