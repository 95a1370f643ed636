import { createContext, useContext } from 'react';
import type { DeviceWarning, SessionDevice, SessionUser } from '../../app/stored-session';

export type SessionStatus = 'loading' | 'signedOut' | 'signedIn';

export interface AuthContextValue {
  status: SessionStatus;
  token: string | null;
  user: SessionUser | null;
  deviceSession: SessionDevice | null;
  warnings: DeviceWarning[];
  isAuthenticated: boolean;
  isAdmin: boolean;
  /** Calls the server, then clears the local session even if that call failed. */
  logout: () => Promise<void>;
  /** Drops the local session without calling the server (forced logout). */
  clearSession: () => void;
  setUser: (user: SessionUser) => void;
  dismissWarning: (index: number) => void;
  dismissAllWarnings: () => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
