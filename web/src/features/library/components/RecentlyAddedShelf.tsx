import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { apolloClient, PREFETCH } from '../../../app/apollo';
import { prefetchCover, prefetchFirstQuery } from '../../../app/prefetch';
import { AudioFilesDocument } from '../../../gql/graphql';
import { RECENTLY_ADDED } from '../library-lists';
import { Shelf } from './Shelf';

// Sent as the library's code loads (see LibraryPage). Above the grid, the shelf's first cover is
// the largest picture in view on every screen size: asked for with the answer.
const takePrefetched = prefetchFirstQuery(window.location.pathname === '/' ? 'recently-added' : null, () =>
  apolloClient
    .query({ query: AudioFilesDocument, variables: RECENTLY_ADDED, context: PREFETCH, fetchPolicy: 'network-only' })
    .then(({ data }) => prefetchCover(data?.audioFiles.items[0]?.coverThumbnailUrl)),
);

/** The newest files, on a shelf above the library's grid; hidden when there are none. */
export function RecentlyAddedShelf() {
  // cache-and-network: coming back to the library shows new uploads without a reload.
  const [afterPrefetch] = useState(() => takePrefetched('recently-added'));
  const { data } = useQuery(AudioFilesDocument, {
    variables: RECENTLY_ADDED,
    fetchPolicy: afterPrefetch ? 'cache-first' : 'cache-and-network',
  });
  return <Shelf id="recently-added" title="Recently added" files={data?.audioFiles.items ?? []} />;
}
