import { useMutation } from '@apollo/client/react';
import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { AdminStreamSessionDocument } from '../../../gql/graphql';
import { errorText } from '../admin-format';

/** The whole file through a stream session: the URL's token is the credential the audio element lacks. */
export function FileAudioPreview({ fileId }: { fileId: string }) {
  const [createSession] = useMutation(AdminStreamSessionDocument);
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    createSession({ variables: { fileId } }).then(
      ({ data }) => active && setSrc(data?.createStreamSession.streamUrl ?? null),
      (err: unknown) => active && setError(errorText(err, 'Failed to load audio file')),
    );
    return () => {
      active = false;
    };
  }, [createSession, fileId]);

  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle2" gutterBottom>
        Audio Preview
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {!src && !error && <CircularProgress size={24} />}
      {src && (
        <audio
          controls
          src={src}
          style={{ width: '100%' }}
          aria-label="Audio preview"
          controlsList="nodownload noremoteplayback"
          onContextMenu={(e) => e.preventDefault()}
        />
      )}
    </Box>
  );
}
