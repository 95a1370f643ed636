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

/** Applies the spec's rules to a rejected call: which failures end the session, and with what text. */
export function forcedLogoutMessageFor(status: 'UNAUTHENTICATED' | 'FORBIDDEN', message: string): string | null {
  if (status === 'UNAUTHENTICATED') return UNAUTHENTICATED_MESSAGE;
  return /expired/i.test(message) ? SESSION_EXPIRED_MESSAGE : null;
}
