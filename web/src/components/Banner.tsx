import { Alert, type AlertColor } from '@mui/material';
import type { ReactNode } from 'react';

/** A form's or list's success or error banner; nothing at all while it has no text. */
export function Banner({ severity, children }: { severity: AlertColor; children?: ReactNode }) {
  if (!children) return null;
  return (
    <Alert severity={severity} sx={{ mb: 2 }}>
      {children}
    </Alert>
  );
}
