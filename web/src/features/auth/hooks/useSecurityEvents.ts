import { skipToken, useApolloClient, useSubscription } from '@apollo/client/react';
import { forceLogout } from '../../../app/forced-logout';
import { useNotify } from '../../../app/notifications';
import { SecurityEventsDocument } from '../../../gql/pending';
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
              if (event.message) notify(event.message, 'warning');
              // The revoked file must drop out of whatever list or page shows it.
              void client.refetchQueries({ include: 'active' });
            } else {
              forceLogout(event.message || undefined);
            }
          },
          onError: (error) => console.warn('Security event feed failed', error),
        }
      : skipToken,
  );
}
