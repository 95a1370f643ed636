import LockIcon from '@mui/icons-material/Lock';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import SecurityIcon from '@mui/icons-material/Security';
import { Alert, Box, Chip, CircularProgress, IconButton, Paper, Slider, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { formatTime } from '../../../components/format-time';
import { usePlayer } from '../player-context';
import { PlayerControls } from './PlayerControls';

/**
 * The DRM player's full view: custom controls over the app's one audio element (PlayerProvider),
 * which offers no download or casting.
 */
export function SecurePlayer({ onShowShortcuts }: { onShowShortcuts: () => void }) {
  const { playback, chapter } = usePlayer();
  const { status, error, duration, position, playing, seek, togglePlay } = playback;
  // While the thumb is dragged the slider shows the drag; the seek happens on release.
  const [dragging, setDragging] = useState<number | null>(null);
  const ready = status === 'ready';

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Alert icon={<SecurityIcon />} severity="success" sx={{ mb: 2 }}>
        <strong>DRM Protected / High Security</strong>
      </Alert>

      {status === 'initializing' && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
          <CircularProgress size={24} aria-label="Initializing secure playback" />
          <Typography>Initializing secure playback...</Typography>
        </Stack>
      )}

      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}

      {chapter && (
        <Typography variant="subtitle2" color="text.secondary" aria-live="polite">
          Chapter: {chapter.label}
        </Typography>
      )}

      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <IconButton
          color="primary"
          size="large"
          onClick={togglePlay}
          disabled={!ready}
          aria-label={playing ? 'Pause' : 'Play'}
        >
          {playing ? <PauseIcon fontSize="large" /> : <PlayArrowIcon fontSize="large" />}
        </IconButton>
        <Slider
          aria-label="Seek"
          min={0}
          max={Math.max(duration, 0.01)}
          step={1}
          value={dragging ?? Math.min(position, duration)}
          disabled={!ready}
          valueLabelDisplay="auto"
          valueLabelFormat={formatTime}
          getAriaValueText={formatTime}
          onChange={(_, value) => setDragging(value)}
          onChangeCommitted={(_, value) => {
            setDragging(null);
            void seek(value);
          }}
        />
      </Stack>

      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mt: 1 }}>
        <Typography variant="body2" role="timer" aria-label="Playback time" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatTime(dragging ?? position)} / {formatTime(duration)}
        </Typography>
        {/* After a failure the error box says what happened; "Initializing..." would mislead. */}
        {status !== 'error' && (
          <Chip
            size="small"
            color={ready ? 'success' : 'default'}
            label={ready ? 'Ready' : 'Initializing...'}
            variant="outlined"
          />
        )}
      </Stack>

      <PlayerControls onShowShortcuts={onShowShortcuts} />

      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 2, color: 'text.secondary' }}>
        <LockIcon fontSize="small" aria-hidden />
        <Typography variant="caption">
          This content is protected by DRM. Downloading, recording and sharing are not permitted.
        </Typography>
      </Box>
    </Paper>
  );
}
