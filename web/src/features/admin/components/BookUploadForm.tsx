import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/Banner';
import { formatBytes } from '../admin-format';
import { partLabel, type BookPart } from '../hooks/book-parts';
import { useBookUpload } from '../hooks/useBookUpload';

/** The largest book, all parts together (the spec's "Maximum file size: 2GB"). */
const MAX_BOOK_BYTES = 2 * 1024 * 1024 * 1024;

function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/**
 * The parts of one book, in the order they will be joined (track number, then file name; the
 * administrator may move them), its details, and the upload: each part sent in chunks, then joined.
 */
export function BookUploadForm({
  parts,
  onReorder,
  onDiscard,
  onDone,
}: {
  parts: BookPart[];
  onReorder: (parts: BookPart[]) => void;
  onDiscard: () => void;
  onDone: () => void;
}) {
  const files = parts.map((p) => p.file);
  const book = useBookUpload(files);
  const [title, setTitle] = useState(parts[0]?.album ?? '');
  const [description, setDescription] = useState('');
  const [isPublic, setIsPublic] = useState(false);
  const { status, partIndex, uploadedBytes, totalBytes, error } = book.state;
  const busy = status === 'uploading' || status === 'joining';
  const tooLarge = totalBytes > MAX_BOOK_BYTES;
  const percent = totalBytes ? Math.round((uploadedBytes / totalBytes) * 100) : 0;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (tooLarge || busy) return;
    const id = await book.upload(files, { title, description, isPublic });
    if (id) onDone();
  };

  return (
    <Paper component="form" noValidate onSubmit={(e) => void onSubmit(e)} sx={{ p: 3, mt: 3 }}>
      <Typography variant="h6" component="h2">
        One book from {parts.length} parts
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Joined in this order without re-encoding, {formatBytes(totalBytes)} in all; each part starts a chapter.
      </Typography>
      <Banner severity="error">
        {tooLarge ? 'These files are too large together: the maximum size is 2GB' : error}
      </Banner>
      <Banner severity="success">{status === 'completed' ? 'Book uploaded successfully!' : null}</Banner>
      <List dense aria-label="Parts in join order">
        {parts.map((part, i) => {
          const label = partLabel(part);
          const details = [
            part.file.name,
            part.track === null ? null : `Track ${part.track}`,
            formatBytes(part.file.size),
          ];
          return (
            <ListItem
              key={`${part.file.name}-${part.file.lastModified}-${part.file.size}`}
              divider
              secondaryAction={
                <Stack direction="row">
                  <IconButton
                    aria-label={`Move ${label} up`}
                    disabled={busy || i === 0}
                    onClick={() => onReorder(moved(parts, i, i - 1))}
                  >
                    <ArrowUpwardIcon />
                  </IconButton>
                  <IconButton
                    aria-label={`Move ${label} down`}
                    disabled={busy || i === parts.length - 1}
                    onClick={() => onReorder(moved(parts, i, i + 1))}
                  >
                    <ArrowDownwardIcon />
                  </IconButton>
                </Stack>
              }
              sx={{ pr: 12 }}
            >
              <Typography component="span" sx={{ minWidth: 32, fontVariantNumeric: 'tabular-nums' }}>
                {i + 1}.
              </Typography>
              <ListItemText
                primary={label}
                secondary={details.filter(Boolean).join(' · ')}
                slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          );
        })}
      </List>
      <TextField
        label="Title"
        fullWidth
        margin="normal"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        helperText="Empty: the album tag of the first part"
      />
      <TextField
        label="Description"
        fullWidth
        multiline
        minRows={3}
        margin="normal"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <FormControlLabel
        control={<Checkbox checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} />}
        label="Make this file public"
      />
      {status !== 'idle' && status !== 'completed' && status !== 'error' && (
        <Box sx={{ mt: 2 }}>
          <LinearProgress
            variant={status === 'joining' ? 'indeterminate' : 'determinate'}
            value={percent}
            aria-label="Book upload progress"
          />
          <Typography variant="body2" role="status">
            {status === 'joining'
              ? 'Joining the parts...'
              : `Uploading part ${partIndex + 1} of ${parts.length}: ${percent}%`}
          </Typography>
        </Box>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 3 }}>
        <Button type="submit" variant="contained" size="large" disabled={busy || tooLarge || status === 'completed'}>
          {busy ? 'Uploading...' : status === 'error' ? 'Retry Upload' : 'Upload Book'}
        </Button>
        <Button
          variant="outlined"
          size="large"
          disabled={status === 'completed'}
          onClick={() => {
            void book.cancel();
            onDiscard();
          }}
        >
          Cancel
        </Button>
      </Stack>
    </Paper>
  );
}
