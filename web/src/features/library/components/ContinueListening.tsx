import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { apolloClient, PREFETCH } from '../../../app/apollo';
import { prefetchFirstQuery } from '../../../app/prefetch';
import { ContinueListeningDocument } from '../../../gql/graphql';
import { Shelf } from './Shelf';

// Sent as the library's code loads, beside the first page of files (see LibraryPage), rather than
// when the page first commits.
const takePrefetched = prefetchFirstQuery(window.location.pathname === '/' ? 'continue-listening' : null, () =>
  apolloClient.query({ query: ContinueListeningDocument, context: PREFETCH, fetchPolicy: 'network-only' }),
);

/** Files the user started and has not finished, most recently played first; hidden when none. */
export function ContinueListening() {
  // cache-and-network: a position saved a moment ago on the player shows on coming back. The first
  // list after a prefetch takes its answer (or joins its request) instead of asking again.
  const [afterPrefetch] = useState(() => takePrefetched('continue-listening'));
  const { data } = useQuery(ContinueListeningDocument, {
    fetchPolicy: afterPrefetch ? 'cache-first' : 'cache-and-network',
  });
  return <Shelf id="continue-listening" title="Continue listening" files={data?.continueListening ?? []} />;
}
