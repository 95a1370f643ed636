import { useQuery } from '@apollo/client/react';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, CircularProgress, Container } from '@mui/material';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { apolloClient, PREFETCH } from '../../../app/apollo';
import { prefetchCover, prefetchFirstQuery } from '../../../app/prefetch';
import { CheckpointsDocument, PlayerFileDocument } from '../../../gql/graphql';
import { PlayerContent } from '../components/PlayerContent';
import { playerCoverUrl, WIDE_COVER_MEDIA } from '../player-context';

// The file and its checkpoints, both asked for by the page's first render; and the file's cover,
// the page's largest picture, with the file's answer rather than once the player has been drawn.
const takePrefetched = prefetchFirstQuery(/^\/player\/([^/]+)$/.exec(window.location.pathname)?.[1] ?? null, (id) =>
  Promise.all([
    apolloClient
      .query({
        query: PlayerFileDocument,
        variables: { id },
        context: PREFETCH,
        fetchPolicy: 'network-only',
      })
      .then(({ data }) => {
        if (data) prefetchCover(playerCoverUrl(data.audioFile, window.matchMedia(WIDE_COVER_MEDIA).matches));
      }),
    apolloClient.query({
      query: CheckpointsDocument,
      variables: { fileId: id },
      context: PREFETCH,
      fetchPolicy: 'network-only',
    }),
  ]),
);

/** /player/{id}: one file with its secure player, chapters and checkpoints. */
export function PlayerPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // From the server each time: the saved position may have moved on another device. The first
  // player after a prefetch (as this code loaded) takes that answer.
  const [prefetchedId] = useState(() => (takePrefetched(id) ? id : null));
  const afterPrefetch = prefetchedId === id;
  const { data, dataState, loading, error } = useQuery(PlayerFileDocument, {
    variables: { id },
    fetchPolicy: afterPrefetch ? 'cache-first' : 'network-only',
  });

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate('/')} sx={{ mb: 2 }}>
        Back to Library
      </Button>
      {loading && dataState !== 'complete' ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
          <CircularProgress aria-label="Loading audio file" />
        </Box>
      ) : dataState === 'complete' ? (
        <PlayerContent key={data.audioFile.id} file={data.audioFile} prefetched={afterPrefetch} />
      ) : (
        <Alert severity="error">{error?.message || 'Failed to load audio file'}</Alert>
      )}
    </Container>
  );
}
