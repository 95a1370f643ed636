import { ApolloProvider } from '@apollo/client/react';
import { CssBaseline, ThemeProvider, createTheme } from '@mui/material';
import { RouterProvider } from 'react-router';
import { AuthProvider } from '../features/auth/AuthProvider';
import { apolloClient } from './apollo';
import { NotificationProvider } from './notifications';
import { router } from './router';

// MUI defaults: the spec does not say the product changes breakpoints, spacing or palette.
const theme = createTheme();

export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ApolloProvider client={apolloClient}>
        <NotificationProvider>
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
        </NotificationProvider>
      </ApolloProvider>
    </ThemeProvider>
  );
}
