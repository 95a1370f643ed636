import { useMutation } from '@apollo/client/react';
import { Box, Button, FormControlLabel, Grid, Paper, Stack, Switch, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { restRequest } from '../../../app/rest';
import {
  AdminUpdateFileDocument,
  UpdateBookDocument,
  type AdminFileRowFragment,
  type BookDetailsFieldsFragment,
} from '../../../gql/graphql';
import { useCoverImage } from '../../library/hooks/useCoverImage';
import { errorText, formatBytes, formatDateTime, formatDurationShort } from '../admin-format';
import { useRedirectAfter } from '../hooks/useRedirectAfter';
import { BookFields, bookFormOf, bookInputOf, bookProblem } from './BookFields';
import { CoverPicker, coverProblem, type CoverStorageType } from './CoverPicker';
import { FileAudioPreview } from './FileAudioPreview';
import { Banner } from '../../../components/Banner';

function Info({ label, value }: { label: string; value: string }) {
  return (
    <Grid size={{ xs: 12, sm: 6, md: 4 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography>{value}</Typography>
    </Grid>
  );
}

/** File information, details, cover and public switch of Edit File. */
export function EditFileForm({ file }: { file: AdminFileRowFragment & BookDetailsFieldsFragment }) {
  const navigate = useNavigate();
  const redirect = useRedirectAfter();
  const currentCover = useCoverImage(file.coverUrl);
  const hasCover = file.coverUrl !== null;
  const [title, setTitle] = useState(file.title);
  const [description, setDescription] = useState(file.description ?? '');
  const [isPublic, setIsPublic] = useState(file.isPublic);
  const [book, setBook] = useState(() => bookFormOf(file));
  const [cover, setCover] = useState<File | null>(null);
  const [removeCover, setRemoveCover] = useState(false);
  const [storage, setStorage] = useState<CoverStorageType>('file');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [updateFile] = useMutation(AdminUpdateFileDocument);
  const [updateBook] = useMutation(UpdateBookDocument);
  // An edit answers the error it was shown for: the alert goes until the next save says otherwise.
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      setError(null);
      set(value);
    };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) return setError('Please enter a title for the audio file');
    const problem = bookProblem(book);
    if (problem) return setError(problem);
    setError(null);
    setSaving(true);
    try {
      if (cover) {
        // A new cover is bytes: it goes through the REST form, with the other fields.
        const form = new FormData();
        form.append('title', title.trim());
        form.append('description', description.trim());
        form.append('isPublic', String(isPublic));
        form.append('cover', cover);
        form.append('coverStorageType', storage);
        await restRequest(`/admin/files/${file.id}`, { method: 'PUT', body: form });
      } else {
        await updateFile({
          variables: {
            id: file.id,
            input: { title: title.trim(), description: description.trim(), isPublic, removeCover },
          },
        });
      }
      await updateBook({ variables: { fileId: file.id, input: bookInputOf(book) } });
      setSuccess('File updated successfully!');
      redirect('/admin/files', 2000);
    } catch (err) {
      setError(errorText(err, 'Failed to update file'));
      setSaving(false);
    }
  };

  return (
    <Paper component="form" noValidate onSubmit={(e) => void onSubmit(e)} sx={{ p: 3 }}>
      <Banner severity="error">{error}</Banner>
      <Banner severity="success">{success}</Banner>
      <Typography variant="h6" component="h2" gutterBottom>
        File Information
      </Typography>
      <Grid container spacing={2} sx={{ mb: 2 }}>
        <Info label="Filename" value={file.filename} />
        <Info label="Size" value={formatBytes(file.size)} />
        <Info label="Duration" value={formatDurationShort(file.duration)} />
        <Info label="MIME Type" value={file.mimeType} />
        <Info label="Created At" value={formatDateTime(file.createdAt)} />
        <Info label="Status" value={file.isPublic ? 'Public' : 'Private'} />
      </Grid>
      <TextField
        label="Title"
        required
        fullWidth
        margin="normal"
        value={title}
        onChange={(e) => edited(setTitle)(e.target.value)}
      />
      <TextField
        label="Description"
        fullWidth
        multiline
        minRows={3}
        margin="normal"
        value={description}
        onChange={(e) => edited(setDescription)(e.target.value)}
      />
      <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
        Book Details
      </Typography>
      <BookFields book={book} onChange={edited(setBook)} />
      <CoverPicker
        cover={cover}
        currentUrl={removeCover ? null : currentCover}
        removeLabel={cover ? 'Remove' : 'Remove Cover'}
        onPick={(picked) => {
          const problem = coverProblem(picked);
          setError(problem);
          if (!problem) setCover(picked);
        }}
        onRemove={() => (cover ? edited(setCover)(null) : edited(setRemoveCover)(true))}
        // The storage choice only matters when a cover will be written.
        showStorage={!hasCover || removeCover || cover !== null}
        storage={storage}
        onStorageChange={setStorage}
      />
      <FileAudioPreview fileId={file.id} />
      <Box sx={{ mt: 2 }}>
        <FormControlLabel
          control={<Switch checked={isPublic} onChange={(e) => edited(setIsPublic)(e.target.checked)} />}
          label="Public"
        />
      </Box>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button onClick={() => void navigate('/admin/files')}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={saving}>
          Save Changes
        </Button>
      </Stack>
    </Paper>
  );
}
