import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useAuth } from '../features/auth/auth-context';
import { AppHeader } from './AppHeader';
import { registerForcedLogoutHandler } from './forced-logout';
import type { RedirectState } from './guards';
import { useNotify } from './notifications';

/**
 * Top of every route: the app bar, and the forced-logout handler (the live feed is in
 * SignedInLayout).
 */
export function RootLayout() {
  const { clearSession } = useAuth();
  const notify = useNotify();
  const navigate = useNavigate();

  useEffect(
    () =>
      registerForcedLogoutHandler((message) => {
        clearSession();
        notify(message, 'warning');
        const { pathname, search, hash } = window.location;
        if (pathname === '/login') return;
        const state: RedirectState = { from: { pathname, search, hash } };
        void navigate('/login', { replace: true, state });
      }),
    [clearSession, notify, navigate],
  );

  return (
    <>
      <AppHeader />
      <Outlet />
    </>
  );
}
