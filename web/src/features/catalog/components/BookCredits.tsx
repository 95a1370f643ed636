import { Link, Typography, type TypographyProps } from '@mui/material';
import { Fragment, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { BookCreditsFragment } from '../../../gql/graphql';

function PeopleLinks({ people }: { people: BookCreditsFragment['authors'] }) {
  return people.map((person, i) => (
    <Fragment key={person.id}>
      {i > 0 && ', '}
      <Link component={RouterLink} to={`/authors/${person.id}`} underline="hover">
        {person.name}
      </Link>
    </Fragment>
  ));
}

/** "By …", "Read by …" and the series with its position, each a link to its page; nothing when unknown. */
export function BookCredits({
  book,
  narrators = true,
  ...text
}: { book: BookCreditsFragment; narrators?: boolean } & TypographyProps) {
  const lines: ReactNode[] = [];
  if (book.authors.length)
    lines.push(
      <Fragment key="by">
        By <PeopleLinks people={book.authors} />
      </Fragment>,
    );
  if (narrators && book.narrators.length)
    lines.push(
      <Fragment key="read">
        Read by <PeopleLinks people={book.narrators} />
      </Fragment>,
    );
  if (book.series)
    lines.push(
      <Link key="series" component={RouterLink} to={`/series/${book.series.series.id}`} underline="hover">
        {book.series.series.name}
        {book.series.position ? ` #${book.series.position}` : ''}
      </Link>,
    );
  if (lines.length === 0) return null;
  return (
    <Typography variant="body2" color="text.secondary" {...text}>
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 && ' · '}
          {line}
        </Fragment>
      ))}
    </Typography>
  );
}
