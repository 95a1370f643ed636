import { useQuery } from '@apollo/client/react';
import { CollectionShelvesDocument } from '../../../gql/graphql';
import { Shelf } from './Shelf';

/** One shelf per collection holding files the user may see, each leading to its collection page. */
export function CollectionShelves() {
  const { data } = useQuery(CollectionShelvesDocument, { fetchPolicy: 'cache-and-network' });
  return (
    <>
      {(data?.collections ?? []).map((collection) => (
        <Shelf
          key={collection.id}
          id={`collection-${collection.id}`}
          title={collection.name}
          files={collection.files}
          seeAll={`/collections/${collection.id}`}
        />
      ))}
    </>
  );
}
