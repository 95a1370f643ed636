import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Box, ButtonBase, IconButton, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { useLocation, useNavigate } from 'react-router';
import { CoverArt } from '../../../components/CoverArt';
import { formatTime } from '../../../components/format-time';
import { usePlayer } from '../player-context';
import { JumpButton } from './JumpButton';

/** Room kept under the page so the bar never covers its last line. */
export const MINI_PLAYER_HEIGHT = 72;

/**
 * The bar at the foot of every signed-in page while a file is loaded: cover, title (opens the full
 * player), play/pause, skips and the position. Hidden on the full player of the same file.
 */
export function MiniPlayer() {
  const { file, playback, cover, chapter, jumps, jumpBack, jumpForward, finished } = usePlayer();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (!file || pathname === `/player/${file.id}`) return null;
  const { status, error, duration, playing, togglePlay } = playback;
  // A finished file shows its end until it is played again.
  const position = finished ? duration : playback.position;
  const ready = status === 'ready';
  const open = () => void navigate(`/player/${file.id}`);

  return (
    <>
      <Box sx={{ height: MINI_PLAYER_HEIGHT }} aria-hidden />
      <Paper
        component="section"
        aria-label="Now playing"
        elevation={8}
        square
        sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, zIndex: (theme) => theme.zIndex.appBar }}
      >
        <LinearProgress
          variant="determinate"
          value={duration > 0 ? Math.min(100, (position / duration) * 100) : 0}
          aria-hidden
          sx={{ height: 3 }}
        />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1.5, height: MINI_PLAYER_HEIGHT - 3 }}>
          <ButtonBase
            onClick={open}
            aria-label={`Open player: ${file.title}`}
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1.5,
              minWidth: 0,
              flex: 1,
              justifyContent: 'flex-start',
              borderRadius: 1,
            }}
          >
            <Box
              sx={{
                width: 48,
                height: 48,
                flexShrink: 0,
                borderRadius: 1,
                overflow: 'hidden',
                bgcolor: 'action.hover',
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
              }}
            >
              <CoverArt src={cover} alt="" />
            </Box>
            <Box sx={{ minWidth: 0, textAlign: 'left' }}>
              <Typography variant="subtitle2" noWrap>
                {file.title}
              </Typography>
              <Typography variant="caption" color={error ? 'error' : 'text.secondary'} noWrap component="p">
                {error ?? (finished ? 'Finished' : (chapter?.label ?? (ready ? 'Ready' : 'Initializing...')))}
              </Typography>
            </Box>
          </ButtonBase>
          <Typography
            variant="body2"
            role="timer"
            aria-label="Mini player time"
            sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
          >
            {formatTime(position)} / {formatTime(duration)}
          </Typography>
          <JumpButton
            direction="back"
            seconds={jumps.back}
            disabled={!ready}
            onClick={jumpBack}
            sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
          />
          <IconButton color="primary" aria-label={playing ? 'Pause' : 'Play'} disabled={!ready} onClick={togglePlay}>
            {playing ? <PauseIcon fontSize="large" /> : <PlayArrowIcon fontSize="large" />}
          </IconButton>
          <JumpButton direction="forward" seconds={jumps.forward} disabled={!ready} onClick={jumpForward} />
        </Stack>
      </Paper>
    </>
  );
}
