import AddIcon from '@mui/icons-material/Add';
import BookmarkIcon from '@mui/icons-material/Bookmark';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  Button,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import type { CheckpointItemFragment } from '../../../gql/graphql';
import { formatTime } from '../../../components/format-time';

interface Props {
  checkpoints: CheckpointItemFragment[];
  onAdd: () => void;
  onJump: (timestamp: number) => void;
  onDelete: (checkpoint: CheckpointItemFragment) => void;
}

export function CheckpointList({ checkpoints, onAdd, onJump, onDelete }: Props) {
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2">
          Checkpoints
        </Typography>
        <Button startIcon={<AddIcon />} variant="outlined" onClick={onAdd}>
          Add Checkpoint
        </Button>
      </Stack>
      {checkpoints.length === 0 ? (
        <Typography color="text.secondary">No checkpoints yet</Typography>
      ) : (
        <List dense aria-label="Checkpoints">
          {checkpoints.map((checkpoint) => (
            <ListItem
              key={checkpoint.id}
              disablePadding
              divider
              secondaryAction={
                <IconButton edge="end" aria-label={`Delete ${checkpoint.name}`} onClick={() => onDelete(checkpoint)}>
                  <DeleteIcon />
                </IconButton>
              }
            >
              <ListItemButton onClick={() => onJump(checkpoint.timestamp)} aria-label={`Jump to ${checkpoint.name}`}>
                <ListItemIcon>
                  <BookmarkIcon />
                </ListItemIcon>
                <ListItemText
                  primary={`${checkpoint.name} (${formatTime(checkpoint.timestamp)})`}
                  secondary={checkpoint.description || null}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
