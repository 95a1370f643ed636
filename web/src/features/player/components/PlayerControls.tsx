import BedtimeIcon from '@mui/icons-material/Bedtime';
import KeyboardIcon from '@mui/icons-material/Keyboard';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import SkipPreviousIcon from '@mui/icons-material/SkipPrevious';
import SpeedIcon from '@mui/icons-material/Speed';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { Button, IconButton, ListSubheader, Menu, MenuItem, Slider, Stack, Tooltip } from '@mui/material';
import { useState } from 'react';
import { formatTime } from '../../../components/format-time';
import { SLEEP_MINUTES } from '../hooks/useSleepTimer';
import { JUMP_SECONDS, PLAYBACK_RATES } from '../hooks/usePlaybackSettings';
import { usePlayer } from '../player-context';
import { JumpButton, jumpLabel } from './JumpButton';

const rateLabel = (rate: number) => `${rate}x`;

/** Jumps (and their lengths), chapters, speed, volume, sleep timer and the shortcut help, under the seek bar. */
export function PlayerControls({ onShowShortcuts }: { onShowShortcuts: () => void }) {
  const player = usePlayer();
  const { playback, file, rate, volume, muted, sleep } = player;
  const [speedAnchor, setSpeedAnchor] = useState<HTMLElement | null>(null);
  const [sleepAnchor, setSleepAnchor] = useState<HTMLElement | null>(null);
  const [jumpAnchor, setJumpAnchor] = useState<HTMLElement | null>(null);
  const { jumps } = player;
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
      <JumpButton direction="back" seconds={jumps.back} disabled={!ready} onClick={player.jumpBack} withKey />
      <JumpButton direction="forward" seconds={jumps.forward} disabled={!ready} onClick={player.jumpForward} withKey />
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

      <Button
        startIcon={<SwapHorizIcon />}
        aria-label={`Jump lengths: back ${jumps.back} seconds, forward ${jumps.forward} seconds`}
        aria-haspopup="menu"
        onClick={(e) => setJumpAnchor(e.currentTarget)}
        sx={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {jumps.back}s / {jumps.forward}s
      </Button>
      <Menu
        anchorEl={jumpAnchor}
        open={jumpAnchor !== null}
        onClose={() => setJumpAnchor(null)}
        slotProps={{ list: { 'aria-label': 'Jump lengths', dense: true } }}
      >
        {(['back', 'forward'] as const).flatMap((direction) => [
          // The items name their direction themselves: the heading is for the eye only.
          <ListSubheader key={direction} aria-hidden>
            {direction === 'back' ? 'Back' : 'Forward'}
          </ListSubheader>,
          ...JUMP_SECONDS.map((seconds) => (
            <MenuItem
              key={`${direction}-${seconds}`}
              role="menuitemradio"
              aria-checked={jumps[direction] === seconds}
              selected={jumps[direction] === seconds}
              onClick={() => {
                player.setJumps({ [direction]: seconds });
                setJumpAnchor(null);
              }}
            >
              {jumpLabel(direction, seconds)}
            </MenuItem>
          )),
        ])}
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
