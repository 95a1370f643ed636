import { useQuery } from '@apollo/client/react';
import { Typography } from '@mui/material';
import { useParams } from 'react-router';
import { SeriesBooksDocument } from '../../../gql/graphql';
import { BookGrid } from '../components/BookGrid';
import { CatalogPage } from './CatalogPage';

/** A series' page: the books of it you may see, in series order, each with its position. */
export function SeriesPage() {
  const { id = '' } = useParams();
  const { data, loading, error } = useQuery(SeriesBooksDocument, {
    variables: { id },
    fetchPolicy: 'cache-and-network',
  });
  const series = data?.series;
  const count = series?.books.length ?? 0;
  return (
    <CatalogPage
      kind="Series"
      title={series?.series.name}
      subtitle={count === 1 ? '1 book' : `${count} books`}
      loading={loading}
      error={error}
    >
      {series && (
        <BookGrid
          heading="Books in order"
          books={series.books.map((b) => b.file)}
          caption={(_, i) => (
            <Typography variant="subtitle2" component="p" sx={{ mb: 0.5 }}>
              {series.books[i].position ? `Book ${series.books[i].position}` : 'Unnumbered'}
            </Typography>
          )}
        />
      )}
    </CatalogPage>
  );
}
