import { Grid, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { AudioFileCard, type LibraryFile } from '../../library/components/AudioFileCard';

/** A titled grid of book cards, each opening the player; nothing when there are no books. */
export function BookGrid({
  heading,
  books,
  caption,
}: {
  heading: string;
  books: LibraryFile[];
  caption?: (book: LibraryFile, index: number) => ReactNode;
}) {
  if (books.length === 0) return null;
  return (
    <section aria-label={heading}>
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 2 }}>
        {heading}
      </Typography>
      <Grid container spacing={3}>
        {books.map((book, i) => (
          <Grid key={book.id} size={{ xs: 12, sm: 6, md: 4 }}>
            {caption?.(book, i)}
            <AudioFileCard file={book} />
          </Grid>
        ))}
      </Grid>
    </section>
  );
}
