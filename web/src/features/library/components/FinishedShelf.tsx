import { useQuery } from '@apollo/client/react';
import { FinishedBooksDocument } from '../../../gql/graphql';
import { BookShelf } from './BookShelf';

/** Books the user has finished, most recently finished first; hidden when none. */
export function FinishedShelf() {
  // cache-and-network: a book finished a moment ago on the player shows on coming back.
  const { data } = useQuery(FinishedBooksDocument, { fetchPolicy: 'cache-and-network' });
  return <BookShelf id="finished-books" title="Finished" files={data?.finishedBooks ?? []} />;
}
