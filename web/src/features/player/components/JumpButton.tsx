import Forward10Icon from '@mui/icons-material/Forward10';
import Forward30Icon from '@mui/icons-material/Forward30';
import Forward5Icon from '@mui/icons-material/Forward5';
import Replay10Icon from '@mui/icons-material/Replay10';
import Replay30Icon from '@mui/icons-material/Replay30';
import Replay5Icon from '@mui/icons-material/Replay5';
import ReplayIcon from '@mui/icons-material/Replay';
import { IconButton, Tooltip, type SxProps, type Theme } from '@mui/material';

const BACK_ICONS: Record<number, typeof ReplayIcon> = { 5: Replay5Icon, 10: Replay10Icon, 30: Replay30Icon };
const FORWARD_ICONS: Record<number, typeof ReplayIcon> = { 5: Forward5Icon, 10: Forward10Icon, 30: Forward30Icon };

/** The icon of a jump: numbered where Material has one, else the plain arrow (mirrored forward). */
function JumpIcon({ direction, seconds }: { direction: 'back' | 'forward'; seconds: number }) {
  const Numbered = (direction === 'back' ? BACK_ICONS : FORWARD_ICONS)[seconds];
  if (Numbered) return <Numbered />;
  return <ReplayIcon sx={direction === 'forward' ? { transform: 'scaleX(-1)' } : undefined} />;
}

export const jumpLabel = (direction: 'back' | 'forward', seconds: number) =>
  `${direction === 'back' ? 'Back' : 'Forward'} ${seconds} seconds`;

/** A back or forward button that jumps by the listener's chosen length. */
export function JumpButton({
  direction,
  seconds,
  disabled,
  onClick,
  withKey = false,
  sx,
}: {
  direction: 'back' | 'forward';
  seconds: number;
  disabled: boolean;
  onClick: () => void;
  /** Names the keyboard shortcut in the tooltip (the full player's keys). */
  withKey?: boolean;
  sx?: SxProps<Theme>;
}) {
  const label = jumpLabel(direction, seconds);
  const button = (
    <IconButton aria-label={label} disabled={disabled} onClick={onClick} sx={sx}>
      <JumpIcon direction={direction} seconds={seconds} />
    </IconButton>
  );
  if (!withKey) return button;
  return (
    <Tooltip title={`${label} (${direction === 'back' ? 'Left' : 'Right'})`}>
      <span>{button}</span>
    </Tooltip>
  );
}
