import CheckIcon from '@mui/icons-material/Check';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import SettingsBrightnessIcon from '@mui/icons-material/SettingsBrightness';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip, useColorScheme } from '@mui/material';
import { useState } from 'react';

const MODES = [
  { mode: 'system', label: 'System', Icon: SettingsBrightnessIcon },
  { mode: 'light', label: 'Light', Icon: LightModeIcon },
  { mode: 'dark', label: 'Dark', Icon: DarkModeIcon },
] as const;

/**
 * Light, dark or as the system says (the default). MUI keeps the choice in this browser's
 * localStorage and follows a system change while the choice is 'system'.
 */
export function ThemeModeMenu() {
  const { mode, setMode } = useColorScheme();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = MODES.find((m) => m.mode === mode) ?? MODES[0];
  const name = `Theme: ${current.label}`;

  return (
    <>
      <Tooltip title={name}>
        <IconButton
          color="inherit"
          aria-label={name}
          aria-haspopup="menu"
          aria-controls={anchor ? 'theme-mode-menu' : undefined}
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <current.Icon />
        </IconButton>
      </Tooltip>
      <Menu
        id="theme-mode-menu"
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-label': 'Theme' } }}
      >
        {MODES.map(({ mode: option, label, Icon }) => (
          <MenuItem
            key={option}
            role="menuitemradio"
            aria-checked={current.mode === option}
            selected={current.mode === option}
            onClick={() => {
              setMode(option);
              setAnchor(null);
            }}
          >
            <ListItemIcon>
              <Icon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{label}</ListItemText>
            {current.mode === option && <CheckIcon fontSize="small" sx={{ ml: 2 }} aria-hidden />}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
