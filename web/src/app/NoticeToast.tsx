import { Alert, Snackbar, type AlertColor } from '@mui/material';

export interface Notice {
  key: number;
  message: string;
  severity: AlertColor;
}

/** The app-wide toast (NotificationProvider), loaded when the first notice shows. */
export function NoticeToast({ open, notice, onClose }: { open: boolean; notice: Notice | null; onClose: () => void }) {
  return (
    <Snackbar
      key={notice?.key}
      open={open}
      autoHideDuration={6000}
      onClose={(_, reason) => reason !== 'clickaway' && onClose()}
      // At the bottom: at the top it covered the sign-in card a forced logout lands on.
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity={notice?.severity ?? 'info'} variant="filled" onClose={onClose}>
        {notice?.message}
      </Alert>
    </Snackbar>
  );
}
