import { ApolloProvider } from '@apollo/client/react';
import { Box } from '@mui/material';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { useSecurityEvents } from '../features/auth/hooks/useSecurityEvents';
import { MiniPlayer } from '../features/player/components/MiniPlayer';
import { installContentProtection } from '../features/player/media-protection';
import { PlayerProvider } from '../features/player/PlayerProvider';
import { apolloClient } from './apollo';

function SecurityEvents() {
  useSecurityEvents();
  return null;
}

/**
 * Above every page behind sign-in, loaded with the first of them: Apollo Client, the GraphQL
 * documents and the live security-event feed stay off the sign-in and registration pages, which
 * need none of them (they call the API with a plain fetch, app/graphql-request.ts). It also holds
 * the player that plays on from page to page (and ends with the session) and the spec's
 * client-side blocks, which apply to every signed-in page.
 */
export function SignedInLayout() {
  useEffect(installContentProtection, []);
  return (
    <ApolloProvider client={apolloClient}>
      <SecurityEvents />
      <PlayerProvider>
        <Box component="main">
          <Outlet />
        </Box>
        <MiniPlayer />
      </PlayerProvider>
    </ApolloProvider>
  );
}
