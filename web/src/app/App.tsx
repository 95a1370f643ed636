import { CssBaseline, ThemeProvider, createTheme } from '@mui/material';
import { RouterProvider } from 'react-router';
import { AuthProvider } from '../features/auth/AuthProvider';
import { NotificationProvider } from './notifications';
import { router } from './router';

// MUI defaults: the spec does not say the product changes breakpoints, spacing or palette.
const theme = createTheme();

export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <NotificationProvider>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </NotificationProvider>
    </ThemeProvider>
  );
}
