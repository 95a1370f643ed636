import { skipToken, useApolloClient, useSubscription } from '@apollo/client/react';
import { announceAccessRevoked } from '../../../app/access-revoked';
import { forceLogout } from '../../../app/forced-logout';
import { useNotify } from '../../../app/notifications';
import { SecurityEventsDocument } from '../../../gql/graphql';
import { useAuth } from '../auth-context';

/**
 * Listens for the server ending this session (another device, an admin, a lock) so the app
 * reacts at once instead of on the next failed request.
 */
export function useSecurityEvents(): void {
  const { isAuthenticated } = useAuth();
  const notify = useNotify();
  const client = useApolloClient();

  useSubscription(
    SecurityEventsDocument,
    isAuthenticated
      ? {
          ignoreResults: true,
          onData: ({ data }) => {
            const event = data.data?.securityEvents;
            if (!event) return;
            if (`${event.type}` === 'ACCESS_REVOKED') {
              const message = event.message || 'Your access to this file has been revoked.';
              notify(message, 'warning');
              // An open player of that file stops first; then lists drop the file.
              announceAccessRevoked(event.fileId, message);
              void client.refetchQueries({ include: ['AudioFiles', 'ContinueListening'] });
            } else {
              forceLogout(event.message || undefined);
            }
          },
          onError: (error) => console.warn('Security event feed failed', error),
        }
      : skipToken,
  );
}
