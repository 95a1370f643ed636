import { Alert, Box, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { formatBytes } from '../admin-format';
import { formatTime } from '../../../components/format-time';
import { CHUNK_SIZE } from '../hooks/chunk-transfer';
import type { ChunkedUploadState } from '../hooks/useChunkedUpload';

interface ChunkedUploadPanelProps {
  file: File;
  state: ChunkedUploadState;
  onStart: () => void;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
  onRetry: () => void;
}

/** Progress and controls of a chunked upload (spec: chunked upload panel). */
export function ChunkedUploadPanel({
  file,
  state,
  onStart,
  onPause,
  onResume,
  onCancel,
  onRetry,
}: ChunkedUploadPanelProps) {
  const percent = state.totalChunks ? Math.round((state.doneChunks / state.totalChunks) * 100) : 0;
  const hashing = state.status === 'hashing';
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} aria-label="Chunked upload">
      <Typography variant="subtitle1" component="h3" gutterBottom>
        Chunked Upload
      </Typography>
      <Stack spacing={0.5}>
        <Typography variant="body2">File: {file.name}</Typography>
        <Typography variant="body2">File size: {formatBytes(file.size)}</Typography>
        <Typography variant="body2">Chunk size: {formatBytes(CHUNK_SIZE)}</Typography>
      </Stack>
      {hashing && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="body2">
            Computing file checksum... {Math.round((state.hashedBytes / Math.max(file.size, 1)) * 100)}%
          </Typography>
          <LinearProgress variant="determinate" value={(state.hashedBytes / Math.max(file.size, 1)) * 100} />
        </Box>
      )}
      <Box sx={{ mt: 2 }}>
        <Typography variant="body2" aria-live="polite">
          Chunks: {state.doneChunks}/{state.totalChunks} ({percent}%)
        </Typography>
        <LinearProgress variant="determinate" value={percent} aria-label="Chunked upload progress" />
        <Stack direction="row" spacing={3} sx={{ mt: 1, flexWrap: 'wrap' }} useFlexGap>
          <Typography variant="body2">Speed: {formatBytes(state.speed)}/s</Typography>
          <Typography variant="body2">
            Time remaining: {state.remainingSeconds == null ? '--:--' : formatTime(state.remainingSeconds)}
          </Typography>
          <Typography variant="body2">
            Uploaded: {formatBytes(state.uploadedBytes)} of {formatBytes(file.size)}
          </Typography>
        </Stack>
      </Box>
      {state.resumedFromStorage && state.status === 'paused' && (
        <Alert severity="info" sx={{ mt: 2 }}>
          An unfinished upload of this file was found. Resume to send the remaining chunks.
        </Alert>
      )}
      {state.error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {state.error}
        </Alert>
      )}
      {state.status === 'completed' && (
        <Alert severity="success" sx={{ mt: 2 }}>
          Upload completed successfully!
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
        {state.status === 'idle' && (
          <Button variant="contained" onClick={onStart}>
            Start Chunked Upload
          </Button>
        )}
        {(state.status === 'uploading' || hashing) && (
          <Button variant="outlined" onClick={onPause} disabled={hashing}>
            Pause
          </Button>
        )}
        {state.status === 'paused' && (
          <Button variant="contained" onClick={onResume}>
            Resume
          </Button>
        )}
        {state.status === 'error' && (
          <Button variant="contained" color="warning" onClick={onRetry}>
            Retry Upload
          </Button>
        )}
        {state.status !== 'idle' && state.status !== 'completed' && (
          <Button color="error" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
