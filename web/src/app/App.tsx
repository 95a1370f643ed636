import { CacheProvider } from '@emotion/react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { RouterProvider } from 'react-router';
import { AuthProvider } from '../features/auth/AuthProvider';
import { NotificationProvider } from './notifications';
import type { AppRouter } from './router';
import { styleCache } from './style-cache';
import { THEME_MODE_KEY, type AppTheme } from './theme';

export function App({ theme, router }: { theme: AppTheme; router: AppRouter }) {
  return (
    <CacheProvider value={styleCache}>
      {/* No server rendering: the stored or system mode is read on the first render, so no flash. */}
      <ThemeProvider theme={theme} defaultMode="system" modeStorageKey={THEME_MODE_KEY} noSsr>
        <CssBaseline />
        <NotificationProvider>
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
        </NotificationProvider>
      </ThemeProvider>
    </CacheProvider>
  );
}
