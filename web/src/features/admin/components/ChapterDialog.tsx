import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';

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

/** Add or edit one chapter: label and start required, an empty end means auto. Mount per use. */
export function ChapterDialog({ initial, busy, onSave, onClose }: ChapterDialogProps) {
  const [label, setLabel] = useState(initial?.label ?? '');
  const [start, setStart] = useState(initial ? String(initial.startTime) : '');
  const [end, setEnd] = useState(initial?.endTime != null ? String(initial.endTime) : '');
  const valid =
    label.trim() !== '' &&
    start.trim() !== '' &&
    Number.isFinite(Number(start)) &&
    (end.trim() === '' || Number.isFinite(Number(end)));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    onSave({ label: label.trim(), startTime: Number(start), endTime: end.trim() === '' ? null : Number(end) });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="chapter-dialog-title" fullWidth maxWidth="xs">
      <form onSubmit={onSubmit}>
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
            label="Start Time (seconds)"
            type="number"
            required
            fullWidth
            margin="normal"
            value={start}
            onChange={(e) => setStart(e.target.value)}
            slotProps={{ htmlInput: { min: 0, step: 'any' } }}
          />
          <TextField
            label="End Time (seconds)"
            type="number"
            fullWidth
            margin="normal"
            helperText="Leave empty to end at the next chapter or the end of the file"
            value={end}
            onChange={(e) => setEnd(e.target.value)}
            slotProps={{ htmlInput: { min: 0, step: 'any' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!valid || busy}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
