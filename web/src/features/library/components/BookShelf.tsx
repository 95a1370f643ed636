import { Box, Stack, Typography } from '@mui/material';
import { useNavigate } from 'react-router';
import { AudioFileCard, type LibraryFile } from './AudioFileCard';

/**
 * A titled row of cards on the library page ("Continue listening", "Finished"), scrolled sideways;
 * nothing at all when it has no files. Each card opens its player.
 */
export function BookShelf({ id, title, files }: { id: string; title: string; files: readonly LibraryFile[] }) {
  const navigate = useNavigate();
  if (files.length === 0) return null;
  return (
    <Box component="section" aria-labelledby={id} sx={{ mb: 4 }}>
      <Typography id={id} variant="h5" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack direction="row" spacing={2} role="list" sx={{ overflowX: 'auto', pb: 1, scrollSnapType: 'x mandatory' }}>
        {files.map((file) => (
          <Box
            key={file.id}
            role="listitem"
            sx={{ flex: '0 0 auto', width: { xs: 240, sm: 280 }, scrollSnapAlign: 'start' }}
          >
            <AudioFileCard file={file} onOpen={() => void navigate(`/player/${file.id}`)} />
          </Box>
        ))}
      </Stack>
    </Box>
  );
}
