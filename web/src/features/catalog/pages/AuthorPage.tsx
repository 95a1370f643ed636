import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { AuthorBooksDocument } from '../../../gql/graphql';
import { BookGrid } from '../components/BookGrid';
import { CatalogPage } from './CatalogPage';

const books = (n: number) => (n === 1 ? '1 book' : `${n} books`);

/** An author's (or narrator's) page: the books you may see that they wrote, then those they read. */
export function AuthorPage() {
  const { id = '' } = useParams();
  const { data, loading, error } = useQuery(AuthorBooksDocument, {
    variables: { id },
    fetchPolicy: 'cache-and-network',
  });
  const author = data?.author;
  const parts = author
    ? [
        author.authored.length ? `${books(author.authored.length)} written` : null,
        author.narrated.length ? `${books(author.narrated.length)} narrated` : null,
      ].filter(Boolean)
    : [];
  return (
    <CatalogPage kind="Author" title={author?.person.name} subtitle={parts.join(' · ')} loading={loading} error={error}>
      {author && (
        <>
          <BookGrid heading="Books" books={author.authored} />
          <BookGrid heading="Narrated" books={author.narrated} />
        </>
      )}
    </CatalogPage>
  );
}
