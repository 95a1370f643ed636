import { useQuery } from '@apollo/client/react';
import { RecentlyAddedDocument } from '../../../gql/graphql';
import { Shelf } from './Shelf';

/** The newest files the user may see; hidden when the library is empty. */
export function RecentlyAdded() {
  // cache-and-network: a file uploaded a moment ago shows on coming back.
  const { data } = useQuery(RecentlyAddedDocument, { fetchPolicy: 'cache-and-network' });
  const files = data?.audioFilesConnection.edges.map((edge) => edge.node) ?? [];
  if (files.length === 0) return null;
  return <Shelf id="recently-added" title="Recently added" files={files} />;
}
