// The signed-in session as kept in the browser: token, user and device session in localStorage
// (keys named by the spec), device warnings in sessionStorage so they survive the post-login reload.
import type { LoginMutation, SessionDeviceFragment, SessionUserFragment } from '../gql/graphql';

export type SessionUser = SessionUserFragment;
export type SessionDevice = SessionDeviceFragment;
export type DeviceWarning = LoginMutation['login']['warnings'][number];

export interface StoredSession {
  token: string | null;
  user: SessionUser | null;
  deviceSession: SessionDevice | null;
  warnings: DeviceWarning[];
}

/** Storage keys (named by the spec); page-preload.js and the browser tests' sign-in use them too. */
export const SESSION_KEYS = {
  token: 'token',
  user: 'user',
  deviceSession: 'deviceSession',
  /** In sessionStorage. */
  warnings: 'deviceWarnings',
} as const;
const { token: TOKEN, user: USER, deviceSession: DEVICE_SESSION, warnings: WARNINGS } = SESSION_KEYS;

function readJson<T>(storage: Storage, key: string): T | null {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(storage: Storage, key: string, value: unknown): void {
  try {
    if (value === null || value === undefined) storage.removeItem(key);
    else storage.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
  } catch {
    // Blocked storage only costs persistence across reloads.
  }
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN);
  } catch {
    return null;
  }
}

export function readStoredSession(): StoredSession {
  return {
    token: getToken(),
    user: readJson<SessionUser>(localStorage, USER),
    deviceSession: readJson<SessionDevice>(localStorage, DEVICE_SESSION),
    warnings: readJson<DeviceWarning[]>(sessionStorage, WARNINGS) ?? [],
  };
}

export function storeSession(session: Partial<StoredSession>): void {
  if ('token' in session) write(localStorage, TOKEN, session.token);
  if ('user' in session) write(localStorage, USER, session.user);
  if ('deviceSession' in session) write(localStorage, DEVICE_SESSION, session.deviceSession);
  if ('warnings' in session) write(sessionStorage, WARNINGS, session.warnings?.length ? session.warnings : null);
}

const clearedListeners = new Set<() => void>();

/** Runs `listener` whenever the stored session is cleared (caches of the account that left). */
export function onSessionCleared(listener: () => void): void {
  clearedListeners.add(listener);
}

export function clearStoredSession(): void {
  storeSession({ token: null, user: null, deviceSession: null, warnings: [] });
  for (const listener of clearedListeners) listener();
}

/** Administrator when the flag is set or the role says so (role may be a generated enum). */
export function isAdminUser(user: SessionUser | null): boolean {
  return !!user && (user.isAdmin || `${user.role}` === 'admin');
}
