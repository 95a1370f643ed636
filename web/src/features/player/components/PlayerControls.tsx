import BedtimeIcon from '@mui/icons-material/Bedtime';
import Forward30Icon from '@mui/icons-material/Forward30';
import KeyboardIcon from '@mui/icons-material/Keyboard';
import ReplayIcon from '@mui/icons-material/Replay';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import SkipPreviousIcon from '@mui/icons-material/SkipPrevious';
import SpeedIcon from '@mui/icons-material/Speed';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { Button, IconButton, Menu, MenuItem, Slider, Stack, Tooltip } from '@mui/material';
import { useState } from 'react';
import { formatTime } from '../../../components/format-time';
import { SLEEP_MINUTES } from '../hooks/useSleepTimer';
import { PLAYBACK_RATES } from '../hooks/usePlaybackSettings';
import { SKIP_BACK_SECONDS, SKIP_FORWARD_SECONDS, usePlayer } from '../player-context';

const rateLabel = (rate: number) => `${rate}x`;

/** Skips, chapters, speed, volume, sleep timer and the shortcut help, under the seek bar. */
export function PlayerControls({ onShowShortcuts }: { onShowShortcuts: () => void }) {
  const player = usePlayer();
  const { playback, file, rate, volume, muted, sleep } = player;
  const [speedAnchor, setSpeedAnchor] = useState<HTMLElement | null>(null);
  const [sleepAnchor, setSleepAnchor] = useState<HTMLElement | null>(null);
  const ready = playback.status === 'ready';
  const hasChapters = (file?.chapters.length ?? 0) > 0;

  const sleepLabel =
    sleep.timer.kind === 'at' && sleep.remaining !== null
      ? `Sleep in ${formatTime(sleep.remaining)}`
      : sleep.timer.kind === 'chapterEnd'
        ? 'Sleep at chapter end'
        : 'Sleep timer';

  return (
    <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1 }}>
      <Tooltip title="Previous chapter (Shift+Left)">
        <span>
          <IconButton aria-label="Previous chapter" disabled={!ready || !hasChapters} onClick={player.previousChapter}>
            <SkipPreviousIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title="Back 15 seconds (Left)">
        <span>
          <IconButton aria-label="Back 15 seconds" disabled={!ready} onClick={() => player.skip(-SKIP_BACK_SECONDS)}>
            <ReplayIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title="Forward 30 seconds (Right)">
        <span>
          <IconButton
            aria-label="Forward 30 seconds"
            disabled={!ready}
            onClick={() => player.skip(SKIP_FORWARD_SECONDS)}
          >
            <Forward30Icon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title="Next chapter (Shift+Right)">
        <span>
          <IconButton aria-label="Next chapter" disabled={!ready || !hasChapters} onClick={player.nextChapter}>
            <SkipNextIcon />
          </IconButton>
        </span>
      </Tooltip>

      <Button
        startIcon={<SpeedIcon />}
        aria-label={`Speed ${rateLabel(rate)}`}
        aria-haspopup="menu"
        onClick={(e) => setSpeedAnchor(e.currentTarget)}
      >
        {rateLabel(rate)}
      </Button>
      <Menu anchorEl={speedAnchor} open={speedAnchor !== null} onClose={() => setSpeedAnchor(null)}>
        {PLAYBACK_RATES.map((option) => (
          <MenuItem
            key={option}
            selected={option === rate}
            onClick={() => {
              player.setRate(option);
              setSpeedAnchor(null);
            }}
          >
            {rateLabel(option)}
          </MenuItem>
        ))}
      </Menu>

      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', width: 180 }}>
        <IconButton aria-label={muted ? 'Unmute' : 'Mute'} onClick={player.toggleMute}>
          {muted || volume === 0 ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
        <Slider
          aria-label="Volume"
          size="small"
          min={0}
          max={1}
          step={0.05}
          value={muted ? 0 : volume}
          getAriaValueText={(v) => `${Math.round(v * 100)}%`}
          onChange={(_, value) => player.setVolume(value)}
        />
      </Stack>

      <Button
        startIcon={<BedtimeIcon />}
        aria-haspopup="menu"
        onClick={(e) => setSleepAnchor(e.currentTarget)}
        sx={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {sleepLabel}
      </Button>
      <Menu anchorEl={sleepAnchor} open={sleepAnchor !== null} onClose={() => setSleepAnchor(null)}>
        {SLEEP_MINUTES.map((minutes) => (
          <MenuItem
            key={minutes}
            onClick={() => {
              player.sleepAfter(minutes);
              setSleepAnchor(null);
            }}
          >
            {minutes} minutes
          </MenuItem>
        ))}
        <MenuItem
          onClick={() => {
            player.sleepAtChapterEnd();
            setSleepAnchor(null);
          }}
        >
          End of chapter
        </MenuItem>
        {sleep.timer.kind !== 'off' && (
          <MenuItem
            onClick={() => {
              player.cancelSleep();
              setSleepAnchor(null);
            }}
          >
            Turn off
          </MenuItem>
        )}
      </Menu>

      <Tooltip title="Keyboard shortcuts (?)">
        <IconButton aria-label="Keyboard shortcuts" onClick={onShowShortcuts} sx={{ ml: 'auto' }}>
          <KeyboardIcon />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}
