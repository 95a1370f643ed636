import type { AlertColor } from '@mui/material';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { lazyOnOpen } from '../components/lazy-on-open';
import { PENDING_NOTICE_KEY } from './forced-logout';
import type { Notice } from './NoticeToast';

type Notify = (message: string, severity?: AlertColor) => void;

const NoticeToast = lazyOnOpen(() => import('./NoticeToast').then((m) => m.NoticeToast), 'NoticeToast');

const NotificationContext = createContext<Notify | null>(null);

/** A forced logout without a mounted app reloads to /login and leaves its message in storage. */
function pendingNotice(): Notice | null {
  try {
    const pending = sessionStorage.getItem(PENDING_NOTICE_KEY);
    return pending ? { key: 0, message: pending, severity: 'warning' } : null;
  } catch {
    // Storage blocked: nothing was left for us.
    return null;
  }
}

/** App-wide toast for events that are not tied to a form (forced logout, revoked access). */
export function NotificationProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<Notice | null>(pendingNotice);
  const [open, setOpen] = useState(notice !== null);

  const notify = useCallback<Notify>((message, severity = 'info') => {
    setNotice({ key: Date.now(), message, severity });
    setOpen(true);
  }, []);

  // Shown once: a later reload must not bring the message back.
  useEffect(() => {
    try {
      sessionStorage.removeItem(PENDING_NOTICE_KEY);
    } catch {
      // Storage blocked: there is nothing to remove.
    }
  }, []);

  return (
    <NotificationContext.Provider value={notify}>
      {children}
      <NoticeToast open={open} notice={notice} onClose={() => setOpen(false)} />
    </NotificationContext.Provider>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotificationContext);
  if (!notify) throw new Error('useNotify must be used inside NotificationProvider');
  return notify;
}
