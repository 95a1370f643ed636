import { CssBaseline, ThemeProvider } from '@mui/material';
import { RouterProvider } from 'react-router';
import { AuthProvider } from '../features/auth/AuthProvider';
import { NotificationProvider } from './notifications';
import { router } from './router';
import { theme, THEME_MODE_KEY } from './theme';

export function App() {
  return (
    // No server rendering: the stored or system mode is read on the first render, so no flash.
    <ThemeProvider theme={theme} defaultMode="system" modeStorageKey={THEME_MODE_KEY} noSsr>
      <CssBaseline />
      <NotificationProvider>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </NotificationProvider>
    </ThemeProvider>
  );
}
