import { Box, Link, Stack, Typography } from '@mui/material';
import { memo } from 'react';
import { Link as RouterLink } from 'react-router';
import { useGradualCount } from '../../../components/useGradualCount';
import { AudioFileCard, type LibraryFile } from './AudioFileCard';

interface Props {
  /** Unique on the page: the heading's id. */
  id: string;
  title: string;
  files: readonly LibraryFile[];
  /** Where "See all" leads, for a shelf showing part of a longer list. */
  seeAll?: string;
}

/** One card of a shelf: memoised like the card, so drawing the next two leaves those drawn alone. */
const ShelfItem = memo(function ShelfItem({ file }: { file: LibraryFile }) {
  return (
    <Box role="listitem" sx={{ flex: '0 0 auto', width: { xs: 240, sm: 280 }, scrollSnapAlign: 'start' }}>
      <AudioFileCard file={file} />
    </Box>
  );
});

/**
 * A titled row of library cards on the library page ("Continue listening", "Recently added", a
 * collection...), scrolled sideways; nothing at all when it has no files. Each card opens its player.
 */
export const Shelf = memo(function Shelf({ id, title, files, seeAll }: Props) {
  // Drawn two cards at a time, like the grid: the page's first render is several shelves at once.
  const shown = useGradualCount(files.length, id, 2, 2);
  if (files.length === 0) return null;
  return (
    <Box component="section" aria-labelledby={id} sx={{ mb: 4 }}>
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'baseline', justifyContent: 'space-between' }}>
        <Typography id={id} variant="h5" component="h2">
          {title}
        </Typography>
        {seeAll && (
          <Link component={RouterLink} to={seeAll} aria-label={`See all of ${title}`}>
            See all
          </Link>
        )}
      </Stack>
      <Stack direction="row" spacing={2} role="list" sx={{ overflowX: 'auto', pb: 1, scrollSnapType: 'x mandatory' }}>
        {files.slice(0, shown).map((file) => (
          <ShelfItem key={file.id} file={file} />
        ))}
      </Stack>
    </Box>
  );
});
