// A forced logout can start outside React (Apollo links, REST calls), so the session layer
// registers a handler here; without one we fall back to clearing storage and reloading /login.
import { clearStoredSession, getToken } from './stored-session';

export const DEFAULT_FORCED_LOGOUT_MESSAGE = 'Authentication required';
export const UNAUTHENTICATED_MESSAGE = 'Invalid or missing authentication token';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';

/** sessionStorage key carrying the message across the fallback reload. */
export const PENDING_NOTICE_KEY = 'forcedLogoutMessage';

type Handler = (message: string) => void;
let handler: Handler | null = null;

export function registerForcedLogoutHandler(next: Handler): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = null;
  };
}

/** The token of the session the user is signing out of on purpose, if any. */
let leavingToken: string | null = null;

/**
 * Called as the user signs out on purpose. Until another session starts, the server's own
 * FORCED_LOGOUT for that logout (it ends the session's other tabs) and any 401 racing it are
 * not forced logouts: no warning; the sign-out clears the session and goes to /login itself.
 */
export function signingOut(token: string | null): void {
  leavingToken = token;
}

function leaving(): boolean {
  const token = getToken();
  return leavingToken !== null && (token === null || token === leavingToken);
}

export function forceLogout(message: string = DEFAULT_FORCED_LOGOUT_MESSAGE): void {
  if (leaving()) return;
  if (handler) {
    handler(message);
    return;
  }
  clearStoredSession();
  if (window.location.pathname === '/login') return;
  try {
    sessionStorage.setItem(PENDING_NOTICE_KEY, message);
  } catch {
    // Without storage the notice is lost; the redirect still happens.
  }
  window.location.assign('/login');
}

export type RefusalCode = 'UNAUTHENTICATED' | 'FORBIDDEN';

/** The refusal an HTTP status stands for (401, 403), if any. */
export function refusalCode(status: number): RefusalCode | null {
  if (status === 401) return 'UNAUTHENTICATED';
  return status === 403 ? 'FORBIDDEN' : null;
}

/** The first of a GraphQL answer's errors that refuses the call, if any. */
export function graphqlRefusal(
  errors: readonly { message: string; extensions?: { code?: unknown } }[],
): { code: RefusalCode; message: string } | null {
  for (const { message, extensions } of errors) {
    const code = extensions?.code;
    if (code === 'UNAUTHENTICATED' || code === 'FORBIDDEN') return { code, message };
  }
  return null;
}

/**
 * The spec's rules for a refused call, in one place for every transport (Apollo, the plain
 * GraphQL fetch, REST, uploads): unauthenticated or an expired session ends the session with the
 * spec's notice; any other refusal is a missing permission and leaves it alone.
 */
export function endRefusedSession(code: RefusalCode, message: string): void {
  if (code === 'UNAUTHENTICATED') forceLogout(UNAUTHENTICATED_MESSAGE);
  else if (/expired/i.test(message)) forceLogout(SESSION_EXPIRED_MESSAGE);
  else console.warn('Insufficient permissions:', message);
}
