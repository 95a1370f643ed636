import { IconButton, Tooltip, useColorScheme } from '@mui/material';
import { useState } from 'react';
import { lazyOnOpen } from './lazy-on-open';
import { THEME_MODES } from './theme-modes';

const ThemeModeOptions = lazyOnOpen(
  () => import('./ThemeModeOptions').then((m) => m.ThemeModeOptions),
  'ThemeModeOptions',
);

/**
 * Light, dark or as the system says (the default). MUI keeps the choice in this browser's
 * localStorage and follows a system change while the choice is 'system'.
 */
export function ThemeModeMenu() {
  const { mode, setMode } = useColorScheme();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = THEME_MODES.find((m) => m.mode === mode) ?? THEME_MODES[0];
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
      <ThemeModeOptions
        open={anchor !== null}
        anchor={anchor}
        current={current.mode}
        onChoose={(option) => {
          setMode(option);
          setAnchor(null);
        }}
        onClose={() => setAnchor(null)}
      />
    </>
  );
}
