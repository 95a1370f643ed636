import { Box, Stack, Typography } from '@mui/material';

export interface Bar {
  key: string;
  label: string;
  seconds: number;
  value: string;
}

/**
 * Horizontal bars drawn with Box widths, each with its label and value as text: readable by a
 * screen reader as a plain list, and no chart library to download.
 */
export function ListeningBars({ bars, title }: { bars: Bar[]; title: string }) {
  const longest = Math.max(...bars.map((bar) => bar.seconds), 1);
  return (
    <Stack component="ul" aria-label={title} spacing={0.75} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {bars.map((bar) => (
        <Stack
          component="li"
          key={bar.key}
          direction="row"
          spacing={1.5}
          sx={{ alignItems: 'center' }}
          data-testid="listening-bar"
        >
          <Typography variant="body2" sx={{ width: { xs: 88, sm: 120 }, flexShrink: 0 }}>
            {bar.label}
          </Typography>
          <Box sx={{ flexGrow: 1, height: 14, borderRadius: 1, bgcolor: 'action.hover', overflow: 'hidden' }}>
            <Box
              sx={{
                width: `${(bar.seconds / longest) * 100}%`,
                height: '100%',
                bgcolor: 'primary.main',
                borderRadius: 1,
              }}
            />
          </Box>
          <Typography variant="body2" sx={{ width: 88, flexShrink: 0, textAlign: 'right' }}>
            {bar.value}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}
