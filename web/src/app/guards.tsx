import { Box, Typography } from '@mui/material';
import { Navigate, Outlet, useLocation, type Location } from 'react-router';
import { useAuth } from '../features/auth/auth-context';

export interface RedirectState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

/** Where to go after signing in: the page the guard turned away, else the library. */
export function rememberedDestination(state: unknown): string {
  const from = (state as RedirectState | null)?.from;
  if (!from?.pathname || from.pathname === '/login') return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

export function SessionLoading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: 8 }}>
      <Typography>Loading...</Typography>
    </Box>
  );
}

function ToLogin() {
  const location = useLocation();
  const state: RedirectState = { from: location };
  return <Navigate to="/login" replace state={state} />;
}

export function RequireAuth() {
  const { status } = useAuth();
  if (status === 'loading') return <SessionLoading />;
  if (status === 'signedOut') return <ToLogin />;
  return <Outlet />;
}

export function RequireAdmin() {
  const { status, isAdmin } = useAuth();
  if (status === 'loading') return <SessionLoading />;
  if (status === 'signedOut') return <ToLogin />;
  if (!isAdmin) return <Navigate to="/" replace />;
  return <Outlet />;
}
