import { useQuery } from '@apollo/client/react';
import { FinishedBooksDocument } from '../../../gql/graphql';
import { Shelf } from './Shelf';

/** Books the user has finished, most recently finished first; hidden when none. */
export function FinishedShelf() {
  // cache-and-network: a book finished a moment ago on the player shows on coming back.
  const { data } = useQuery(FinishedBooksDocument, { fetchPolicy: 'cache-and-network' });
  return <Shelf id="finished-books" title="Finished" files={data?.finishedBooks ?? []} />;
}
