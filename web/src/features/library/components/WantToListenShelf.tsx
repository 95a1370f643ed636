import { useQuery } from '@apollo/client/react';
import { WantToListenDocument } from '../../../gql/graphql';
import { Shelf } from './Shelf';

/** The user's own "Want to listen" list, most recently added first; hidden when empty. */
export function WantToListenShelf() {
  const { data } = useQuery(WantToListenDocument, { fetchPolicy: 'cache-and-network' });
  // A file taken off the list elsewhere drops out at once, before the list is asked for again.
  const files = (data?.wantToListen ?? []).filter((file) => file.wantToListen);
  return <Shelf id="want-to-listen" title="Want to listen" files={files} />;
}
