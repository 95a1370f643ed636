import CheckIcon from '@mui/icons-material/Check';
import { ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { THEME_MODES, type ThemeMode } from './theme-modes';

interface Props {
  open: boolean;
  anchor: HTMLElement | null;
  current: ThemeMode;
  onChoose: (mode: ThemeMode) => void;
  onClose: () => void;
}

/** The theme menu's choices; loaded when the menu first opens (ThemeModeMenu). */
export function ThemeModeOptions({ open, anchor, current, onChoose, onClose }: Props) {
  return (
    <Menu
      id="theme-mode-menu"
      anchorEl={anchor}
      open={open}
      onClose={onClose}
      slotProps={{ list: { 'aria-label': 'Theme' } }}
    >
      {THEME_MODES.map(({ mode: option, label, Icon }) => (
        <MenuItem
          key={option}
          role="menuitemradio"
          aria-checked={current === option}
          selected={current === option}
          onClick={() => onChoose(option)}
        >
          <ListItemIcon>
            <Icon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{label}</ListItemText>
          {current === option && <CheckIcon fontSize="small" sx={{ ml: 2 }} aria-hidden />}
        </MenuItem>
      ))}
    </Menu>
  );
}
