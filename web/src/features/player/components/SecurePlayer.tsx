import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import LockIcon from '@mui/icons-material/Lock';
import ReplayIcon from '@mui/icons-material/Replay';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import SecurityIcon from '@mui/icons-material/Security';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  LinearProgress,
  Paper,
  Slider,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { formatTime } from '../../../components/format-time';
import { chapterEnd, type ChapterMark } from '../chapter-navigation';
import { usePlayer } from '../player-context';
import { PlayerControls } from './PlayerControls';

/** Where the listener is in the current chapter: a thin bar and its own clock, under the book's. */
function ChapterProgress({ chapter, at }: { chapter: ChapterMark; at: number }) {
  const { file, playback } = usePlayer();
  const end = chapterEnd(file?.chapters ?? [], chapter, playback.duration);
  const length = Math.max(0, end - chapter.startTime);
  const into = Math.min(length, Math.max(0, at - chapter.startTime));
  const percent = length > 0 ? (into / length) * 100 : 0;
  return (
    <Box sx={{ mt: 1 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline', gap: 2 }}>
        <Typography variant="subtitle2" color="text.secondary" aria-live="polite" noWrap>
          Chapter: {chapter.label}
        </Typography>
        <Typography
          variant="caption"
          color="text.secondary"
          role="timer"
          aria-label="Chapter time"
          sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
        >
          {formatTime(into)} / {formatTime(length)}
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={`Chapter progress: ${Math.round(percent)}%`}
        sx={{ height: 4, borderRadius: 2 }}
      />
    </Box>
  );
}

/**
 * The DRM player's full view: custom controls over the app's one audio element (PlayerProvider),
 * which offers no download or casting.
 */
export function SecurePlayer({ onShowShortcuts }: { onShowShortcuts: () => void }) {
  const { playback, chapter, file, finished, playAgain, markFinished } = usePlayer();
  const { status, error, duration, playing, seek, togglePlay } = playback;
  // A finished file shows its end, not 0:00, until it is played again.
  const position = finished ? duration : playback.position;
  const marks = (file?.chapters ?? []).filter((c) => c.startTime > 0).map((c) => ({ value: c.startTime }));
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

      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        {finished ? (
          <IconButton color="primary" size="large" onClick={playAgain} disabled={!ready} aria-label="Play again">
            <ReplayIcon fontSize="large" />
          </IconButton>
        ) : (
          <IconButton
            color="primary"
            size="large"
            onClick={togglePlay}
            disabled={!ready}
            aria-label={playing ? 'Pause' : 'Play'}
          >
            {playing ? <PauseIcon fontSize="large" /> : <PlayArrowIcon fontSize="large" />}
          </IconButton>
        )}
        <Slider
          aria-label="Seek"
          min={0}
          max={Math.max(duration, 0.01)}
          step={1}
          marks={marks}
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

      {chapter && !finished && <ChapterProgress chapter={chapter} at={dragging ?? position} />}

      <Stack direction="row" useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        <Typography variant="body2" role="timer" aria-label="Playback time" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatTime(dragging ?? position)} / {formatTime(duration)}
        </Typography>
        {finished && <Chip size="small" color="success" icon={<CheckCircleIcon />} label="Finished" />}
        <Box sx={{ flexGrow: 1 }} />
        {finished ? (
          <Button size="small" onClick={() => void markFinished(false)}>
            Mark as not finished
          </Button>
        ) : (
          <Button size="small" startIcon={<DoneAllIcon />} onClick={() => void markFinished(true)} disabled={!ready}>
            Mark as finished
          </Button>
        )}
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
