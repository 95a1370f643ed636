import AudioFileIcon from '@mui/icons-material/AudioFile';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { useObjectUrl } from '../../../components/useObjectUrl';
import { formatBytes } from '../admin-format';

/**
 * Drag-and-drop or click to choose one audio file; shows a preview player once chosen. Several
 * files at once go to `onPickMany`: the parts of one book.
 */
export function AudioDropZone({
  file,
  onPick,
  onPickMany,
}: {
  file: File | null;
  onPick: (file: File) => void;
  onPickMany: (files: File[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const preview = useObjectUrl(file);

  const pick = (list: FileList | null | undefined) => {
    const files = [...(list ?? [])];
    if (files.length > 1) onPickMany(files);
    else if (files[0]) onPick(files[0]);
  };

  const chooser = (
    <input
      ref={input}
      hidden
      type="file"
      accept="audio/*"
      multiple
      aria-label="Audio file"
      onChange={(e) => {
        const files = e.target.files;
        pick(files);
        e.target.value = '';
      }}
    />
  );

  if (file) {
    return (
      <Paper variant="outlined" sx={{ p: 2 }}>
        {chooser}
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
          <AudioFileIcon color="primary" />
          <Box sx={{ flexGrow: 1 }}>
            <Typography>{file.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {formatBytes(file.size)}
            </Typography>
          </Box>
          <Button variant="outlined" onClick={() => input.current?.click()}>
            Change File
          </Button>
        </Stack>
        {preview && <audio controls src={preview} style={{ width: '100%' }} aria-label="Audio preview" />}
      </Paper>
    );
  }

  return (
    <Paper
      variant="outlined"
      role="button"
      tabIndex={0}
      aria-label="Choose an audio file"
      onClick={() => input.current?.click()}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') input.current?.click();
      }}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        pick(e.dataTransfer.files);
      }}
      sx={{
        p: 4,
        textAlign: 'center',
        cursor: 'pointer',
        borderStyle: 'dashed',
        bgcolor: dragging ? 'action.hover' : undefined,
      }}
    >
      {chooser}
      <CloudUploadIcon sx={{ fontSize: 48 }} color="primary" />
      <Typography variant="h6">Drag and drop an audio file here, or click to select</Typography>
      <Typography variant="body2" color="text.secondary">
        Maximum file size: 2GB
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Supported formats: MP3, WAV, AAC, OGG
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Several files at once become one book, a chapter per file
      </Typography>
    </Paper>
  );
}
