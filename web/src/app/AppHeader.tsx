import { AppBar, Box, Link, Toolbar } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { ThemeModeMenu } from '../components/ThemeModeMenu';

/** The slim bar above every screen: the product's name (home) and the theme choice. */
export function AppHeader() {
  return (
    <AppBar position="static" color="transparent" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar variant="dense">
        <Link component={RouterLink} to="/" color="inherit" underline="hover" variant="subtitle1">
          Protected Audio Library
        </Link>
        <Box sx={{ flexGrow: 1 }} />
        <ThemeModeMenu />
      </Toolbar>
    </AppBar>
  );
}
