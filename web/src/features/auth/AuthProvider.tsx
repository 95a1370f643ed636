import { startTransition, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  clearStoredSession,
  getToken,
  isAdminUser,
  readStoredSession,
  storeSession,
  type StoredSession,
  type SessionUser,
} from '../../app/stored-session';
import { endRefusedSession, graphqlRefusal, signingOut } from '../../app/forced-logout';
import { GraphqlCallError, requestGraphql } from '../../app/graphql-request';
import { LogoutDocument, MeDocument, type MeQuery } from '../../gql/graphql';
import { AuthContext, type AuthContextValue, type SessionStatus } from './auth-context';

interface State extends StoredSession {
  status: SessionStatus;
}

const signedOut: State = { status: 'signedOut', token: null, user: null, deviceSession: null, warnings: [] };

/**
 * The stored session's `me`, asked for as this code loads rather than once the first screen has
 * been drawn: the page behind the guard waits for it. Taken by the first check of that token.
 */
let earlyMe: { token: string; answer: Promise<MeQuery> } | null = (() => {
  const token = getToken();
  if (!token) return null;
  const answer = requestGraphql(MeDocument);
  answer.catch(() => undefined); // handled where it is taken
  return { token, answer };
})();

function takeMe(token: string): Promise<MeQuery> {
  const early = earlyMe;
  earlyMe = null;
  return early?.token === token ? early.answer : requestGraphql(MeDocument);
}

function initialState(): State {
  const stored = readStoredSession();
  // With a token we still wait for `me`: the stored user may be stale or the token revoked.
  return stored.token ? { ...stored, status: 'loading' } : signedOut;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>(initialState);
  const loadingToken = state.status === 'loading' ? state.token : null;

  useEffect(() => {
    if (!loadingToken) return;
    let current = true;
    takeMe(loadingToken)
      .then((data) => {
        if (!current) return;
        if (!data?.me) throw new Error('No user returned');
        storeSession({ user: data.me });
        // The page behind the guard appears in an interruptible render, not one long task.
        startTransition(() => setState((s) => ({ ...s, status: 'signedIn', user: data.me })));
      })
      .catch((error: unknown) => {
        if (!current) return;
        // A refused token ends the session with the spec's notice, as any other call's would.
        const refusal = error instanceof GraphqlCallError ? graphqlRefusal(error.errors) : null;
        if (refusal) endRefusedSession(refusal.code, refusal.message);
        clearStoredSession();
        setState(signedOut);
      });
    return () => {
      current = false;
    };
  }, [loadingToken]);

  const clearSession = useCallback(() => {
    // Also empties Apollo's cache, if the signed-in pages loaded it (apollo.ts listens).
    clearStoredSession();
    setState(signedOut);
  }, []);

  const logout = useCallback(async () => {
    signingOut(getToken());
    try {
      await requestGraphql(LogoutDocument);
    } catch (error) {
      console.warn('Logout call failed; clearing the local session anyway', error);
    }
    clearSession();
  }, [clearSession]);

  const setUser = useCallback((user: SessionUser) => {
    storeSession({ user });
    setState((s) => ({ ...s, user }));
  }, []);

  const setWarnings = useCallback((update: (w: State['warnings']) => State['warnings']) => {
    setState((s) => {
      const warnings = update(s.warnings);
      storeSession({ warnings });
      return { ...s, warnings };
    });
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      ...state,
      isAuthenticated: state.status === 'signedIn',
      isAdmin: state.status === 'signedIn' && isAdminUser(state.user),
      logout,
      clearSession,
      setUser,
      dismissWarning: (index) => setWarnings((w) => w.filter((_, i) => i !== index)),
      dismissAllWarnings: () => setWarnings(() => []),
    }),
    [state, logout, clearSession, setUser, setWarnings],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
