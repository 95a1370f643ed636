import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState, type ReactNode } from 'react';

interface Props {
  open: boolean;
  title: string;
  /** A sentence, or several lines of detail. */
  message: ReactNode;
  confirmLabel: string;
  /** Destructive actions show their button in the error colour. */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The one confirmation dialog: a question, Cancel and the action. While it fades out it keeps the
 * words it was opened with: callers usually derive them from a selection they clear on closing.
 */
export function ConfirmDialog({ open, danger, busy, onConfirm, onCancel, ...words }: Props) {
  const [shown, setShown] = useState(words);
  const changed =
    shown.title !== words.title || shown.message !== words.message || shown.confirmLabel !== words.confirmLabel;
  if (open && changed) setShown(words);
  const { title, message, confirmLabel } = open ? words : shown;
  return (
    <Dialog open={open} onClose={onCancel} aria-describedby="confirm-dialog-message">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-dialog-message" component="div">
          {message}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" color={danger ? 'error' : 'primary'} onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
