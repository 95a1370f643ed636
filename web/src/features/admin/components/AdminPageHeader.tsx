import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Button, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

/** Title row of an admin screen: Back, the heading and the screen's main actions. */
export function AdminPageHeader({ title, back, children }: { title: string; back: string; children?: ReactNode }) {
  const navigate = useNavigate();
  return (
    <Stack
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 3, flexWrap: 'wrap' }}
      useFlexGap
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate(back)}>
          Back
        </Button>
        <Typography variant="h4" component="h1">
          {title}
        </Typography>
      </Stack>
      {children && (
        <Stack direction="row" spacing={1}>
          {children}
        </Stack>
      )}
    </Stack>
  );
}
