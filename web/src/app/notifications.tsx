import { Alert, Snackbar, type AlertColor } from '@mui/material';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { PENDING_NOTICE_KEY } from './forced-logout';

type Notify = (message: string, severity?: AlertColor) => void;

interface Notice {
  key: number;
  message: string;
  severity: AlertColor;
}

const NotificationContext = createContext<Notify | null>(null);

/** App-wide toast for events that are not tied to a form (forced logout, revoked access). */
export function NotificationProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [open, setOpen] = useState(false);

  const notify = useCallback<Notify>((message, severity = 'info') => {
    setNotice({ key: Date.now(), message, severity });
    setOpen(true);
  }, []);

  // A forced logout without a mounted app reloads to /login and leaves its message here.
  useEffect(() => {
    try {
      const pending = sessionStorage.getItem(PENDING_NOTICE_KEY);
      if (!pending) return;
      sessionStorage.removeItem(PENDING_NOTICE_KEY);
      notify(pending, 'warning');
    } catch {
      // Storage blocked: nothing was left for us.
    }
  }, [notify]);

  return (
    <NotificationContext.Provider value={notify}>
      {children}
      <Snackbar
        key={notice?.key}
        open={open}
        autoHideDuration={6000}
        onClose={(_, reason) => reason !== 'clickaway' && setOpen(false)}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Alert severity={notice?.severity ?? 'info'} variant="filled" onClose={() => setOpen(false)}>
          {notice?.message}
        </Alert>
      </Snackbar>
    </NotificationContext.Provider>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotificationContext);
  if (!notify) throw new Error('useNotify must be used inside NotificationProvider');
  return notify;
}
