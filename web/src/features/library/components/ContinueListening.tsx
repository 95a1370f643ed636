import { useQuery } from '@apollo/client/react';
import { Box, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { apolloClient, PREFETCH } from '../../../app/apollo';
import { prefetchFirstQuery } from '../../../app/prefetch';
import { ContinueListeningDocument } from '../../../gql/graphql';
import { AudioFileCard } from './AudioFileCard';

// Sent as the library's code loads, beside the first page of files (see LibraryPage), rather than
// when the page first commits.
const takePrefetched = prefetchFirstQuery(window.location.pathname === '/' ? 'continue-listening' : null, () =>
  apolloClient.query({ query: ContinueListeningDocument, context: PREFETCH, fetchPolicy: 'network-only' }),
);

/** Files the user started and has not finished, most recently played first; hidden when none. */
export function ContinueListening() {
  const navigate = useNavigate();
  // cache-and-network: a position saved a moment ago on the player shows on coming back. The first
  // list after a prefetch takes its answer (or joins its request) instead of asking again.
  const [afterPrefetch] = useState(() => takePrefetched('continue-listening'));
  const { data } = useQuery(ContinueListeningDocument, {
    fetchPolicy: afterPrefetch ? 'cache-first' : 'cache-and-network',
  });
  const files = data?.continueListening ?? [];
  if (files.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="continue-listening" sx={{ mb: 4 }}>
      <Typography id="continue-listening" variant="h5" component="h2" sx={{ mb: 2 }}>
        Continue listening
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
