import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { formatTimeInput, parseTime } from '../../../components/chapter-time';

export interface ChapterDraft {
  label: string;
  startTime: number;
  endTime: number | null;
}

interface ChapterDialogProps {
  /** Editing this chapter; null adds a new one. */
  initial: ChapterDraft | null;
  busy: boolean;
  onSave: (draft: ChapterDraft) => void;
  onClose: () => void;
}

const TIME_HINT = 'h:mm:ss, m:ss or seconds';

/** The times as typed, read: each an error to show or seconds (null: an empty end). */
function readTimes(start: string, end: string) {
  const startTime = start.trim() === '' ? { error: 'Enter a start time' } : parseTime(start);
  const endTime = end.trim() === '' ? { seconds: null } : parseTime(end);
  const endError =
    'error' in endTime
      ? endTime.error
      : 'seconds' in startTime && endTime.seconds !== null && endTime.seconds <= startTime.seconds
        ? 'The end must be after the start'
        : null;
  return {
    startError: 'error' in startTime ? startTime.error : null,
    endError,
    startTime: 'seconds' in startTime ? startTime.seconds : 0,
    endTime: 'seconds' in endTime ? endTime.seconds : null,
  };
}

/**
 * Add or edit one chapter: label and start required, an empty end means auto. Times are typed as
 * h:mm:ss (m:ss and plain seconds work too) and shown so. Mount per use.
 */
export function ChapterDialog({ initial, busy, onSave, onClose }: ChapterDialogProps) {
  const [label, setLabel] = useState(initial?.label ?? '');
  const [start, setStart] = useState(initial ? formatTimeInput(initial.startTime) : '');
  const [end, setEnd] = useState(initial?.endTime != null ? formatTimeInput(initial.endTime) : '');
  // A field's message shows once it has been left or the form sent, not while the first digit is typed.
  const [touched, setTouched] = useState({ start: false, end: false });
  const times = readTimes(start, end);
  const valid = label.trim() !== '' && !times.startError && !times.endError;
  const startError = touched.start ? times.startError : null;
  const endError = touched.end ? times.endError : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ start: true, end: true });
    if (!valid) return;
    onSave({ label: label.trim(), startTime: times.startTime, endTime: times.endTime });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="chapter-dialog-title" fullWidth maxWidth="xs">
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="chapter-dialog-title">{initial ? 'Edit Chapter' : 'Add Chapter'}</DialogTitle>
        <DialogContent>
          <TextField
            label="Chapter Label"
            required
            fullWidth
            margin="normal"
            autoFocus
            value={label}
            onChange={(e) => setLabel(e.target.value)}
          />
          <TextField
            label="Start Time (h:mm:ss)"
            required
            fullWidth
            margin="normal"
            placeholder="0:00:00"
            value={start}
            onChange={(e) => setStart(e.target.value)}
            onBlur={() => setTouched((t) => ({ ...t, start: true }))}
            error={startError !== null}
            helperText={startError ?? TIME_HINT}
            slotProps={{ htmlInput: { inputMode: 'decimal', autoComplete: 'off' } }}
          />
          <TextField
            label="End Time (h:mm:ss)"
            fullWidth
            margin="normal"
            value={end}
            onChange={(e) => setEnd(e.target.value)}
            onBlur={() => setTouched((t) => ({ ...t, end: true }))}
            error={endError !== null}
            helperText={endError ?? `${TIME_HINT}; leave empty to end at the next chapter or the end of the file`}
            slotProps={{ htmlInput: { inputMode: 'decimal', autoComplete: 'off' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy || label.trim() === ''}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
