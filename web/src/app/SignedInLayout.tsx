import { ApolloProvider } from '@apollo/client/react';
import { Outlet } from 'react-router';
import { useSecurityEvents } from '../features/auth/hooks/useSecurityEvents';
import { apolloClient } from './apollo';

function SecurityEvents() {
  useSecurityEvents();
  return null;
}

/**
 * Above every page behind sign-in, loaded with the first of them: Apollo Client, the GraphQL
 * documents and the live security-event feed stay off the sign-in and registration pages, which
 * need none of them (they call the API with a plain fetch, app/graphql-request.ts).
 */
export function SignedInLayout() {
  return (
    <ApolloProvider client={apolloClient}>
      <SecurityEvents />
      <Outlet />
    </ApolloProvider>
  );
}
