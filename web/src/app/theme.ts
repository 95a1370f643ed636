import { createTheme } from '@mui/material';

// MUI's own light and dark palettes: the spec does not say the product changes breakpoints,
// spacing or colours. One change for legibility: text on a coloured fill (a filled alert or chip,
// a contained button) is picked for WCAG AA contrast (4.5:1, MUI's default asks only 3:1), so the
// warning and info fills carry dark text in the light scheme too.
// CSS variables let the scheme switch without re-rendering the app; the class on <html> (rather
// than the media query alone) lets the listener's choice override the system's.
const palette = { contrastThreshold: 4.5 };

export function createAppTheme() {
  return createTheme({
    colorSchemes: { light: { palette }, dark: { palette } },
    cssVariables: { colorSchemeSelector: 'class' },
  });
}

export type AppTheme = ReturnType<typeof createAppTheme>;

/** localStorage key of the chosen mode: 'system' (the default), 'light' or 'dark'. */
export const THEME_MODE_KEY = 'themeMode';
