import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  clearStoredSession,
  getToken,
  isAdminUser,
  readStoredSession,
  storeSession,
  type StoredSession,
  type SessionUser,
} from '../../app/stored-session';
import { signingOut } from '../../app/forced-logout';
import { LogoutDocument, MeDocument } from '../../gql/graphql';
import { AuthContext, type AuthContextValue, type SessionStatus } from './auth-context';

interface State extends StoredSession {
  status: SessionStatus;
}

const signedOut: State = { status: 'signedOut', token: null, user: null, deviceSession: null, warnings: [] };

function initialState(): State {
  const stored = readStoredSession();
  // With a token we still wait for `me`: the stored user may be stale or the token revoked.
  return stored.token ? { ...stored, status: 'loading' } : signedOut;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const client = useApolloClient();
  const [state, setState] = useState<State>(initialState);
  const loadingToken = state.status === 'loading' ? state.token : null;

  useEffect(() => {
    if (!loadingToken) return;
    let current = true;
    client
      .query({ query: MeDocument, fetchPolicy: 'network-only' })
      .then(({ data }) => {
        if (!current) return;
        if (!data?.me) throw new Error('No user returned');
        storeSession({ user: data.me });
        setState((s) => ({ ...s, status: 'signedIn', user: data.me }));
      })
      .catch(() => {
        if (!current) return;
        clearStoredSession();
        setState(signedOut);
      });
    return () => {
      current = false;
    };
  }, [client, loadingToken]);

  const clearSession = useCallback(() => {
    clearStoredSession();
    setState(signedOut);
    // Cached data belongs to the account that just left.
    void client.clearStore();
  }, [client]);

  const logout = useCallback(async () => {
    signingOut(getToken());
    try {
      await client.mutate({ mutation: LogoutDocument });
    } catch (error) {
      console.warn('Logout call failed; clearing the local session anyway', error);
    }
    clearSession();
  }, [client, clearSession]);

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
