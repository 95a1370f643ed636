import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import SettingsBrightnessIcon from '@mui/icons-material/SettingsBrightness';

export const THEME_MODES = [
  { mode: 'system', label: 'System', Icon: SettingsBrightnessIcon },
  { mode: 'light', label: 'Light', Icon: LightModeIcon },
  { mode: 'dark', label: 'Dark', Icon: DarkModeIcon },
] as const;

export type ThemeMode = (typeof THEME_MODES)[number]['mode'];
