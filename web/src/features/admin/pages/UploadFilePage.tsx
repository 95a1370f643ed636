import {
  Alert,
  Box,
  Button,
  Checkbox,
  Container,
  FormControlLabel,
  LinearProgress,
  Paper,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { errorText } from '../admin-format';
import { appendBookForm, BookFields, bookFormOfTags, bookProblem, EMPTY_BOOK } from '../components/BookFields';
import { readTags } from '../read-tags';
import { AdminPageHeader } from '../components/AdminPageHeader';
import { AudioDropZone } from '../components/AudioDropZone';
import { BookUploadForm } from '../components/BookUploadForm';
import { ChunkedUploadPanel } from '../components/ChunkedUploadPanel';
import { CoverPicker, coverProblem, type CoverStorageType } from '../components/CoverPicker';
import { joinOrder, readBookPart, type BookPart } from '../hooks/book-parts';
import { useChunkedUpload } from '../hooks/useChunkedUpload';
import { useRedirectAfter } from '../hooks/useRedirectAfter';
import { forgetUpload } from '../hooks/upload-resume-store';
import { xhrRequest } from '../hooks/xhr-request';
import { Banner } from '../../../components/Banner';

const CHUNKED_THRESHOLD = 104_857_600;
const FINALIZE_TIMEOUT_MS = 300_000;

const titleFromName = (name: string) => name.replace(/\.[^.]+$/, '');

export function UploadFilePage() {
  const redirect = useRedirectAfter();
  const [file, setFile] = useState<File | null>(null);
  const [bookParts, setBookParts] = useState<BookPart[] | null>(null);
  const [chunkedMode, setChunkedMode] = useState(false);
  const [recommendChunked, setRecommendChunked] = useState(false);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [isPublic, setIsPublic] = useState(false);
  const [book, setBook] = useState(EMPTY_BOOK);
  const [readFrom, setReadFrom] = useState<string | null>(null);
  const [cover, setCover] = useState<File | null>(null);
  const [coverStorage, setCoverStorage] = useState<CoverStorageType>('file');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [progress, setProgress] = useState(0);
  const chunked = useChunkedUpload(chunkedMode ? file : null);
  const chunkedDone = chunked.state.status === 'completed';

  const onPickAudio = (picked: File) => {
    if (!picked.type.startsWith('audio/')) {
      setError('Please select an audio file (MP3, WAV, etc.)');
      return;
    }
    setError(null);
    setFile(picked);
    const large = picked.size > CHUNKED_THRESHOLD;
    setRecommendChunked(large);
    if (large) setChunkedMode(true);
    if (!title.trim()) setTitle(titleFromName(picked.name));
    // The file's own tags fill what is still blank, shown for checking before anything is sent.
    void readTags(picked).then((tags) => {
      if (!tags) return;
      const found = bookFormOfTags(tags);
      setBook((typed) => {
        const merged = { ...typed };
        for (const key of Object.keys(typed) as (keyof typeof typed)[])
          if (!typed[key].trim()) merged[key] = found[key];
        return merged;
      });
      setTitle((typed) => (tags.title && (!typed.trim() || typed === titleFromName(picked.name)) ? tags.title : typed));
      if (tags.description) setDescription((typed) => typed || (tags.description ?? ''));
      const any = tags.title || tags.authors.length || tags.narrators.length || tags.series || tags.genres.length;
      setReadFrom(any ? picked.name : null);
    });
  };

  const onPickParts = async (picked: File[]) => {
    if (picked.some((f) => !f.type.startsWith('audio/'))) {
      setError('Please select an audio file (MP3, WAV, etc.)');
      return;
    }
    setError(null);
    setFile(null);
    setBookParts(joinOrder(await Promise.all(picked.map(readBookPart))));
  };

  const onPickCover = (picked: File) => {
    const problem = coverProblem(picked);
    setError(problem);
    if (!problem) setCover(picked);
  };

  const detailsForm = (): FormData => {
    const form = new FormData();
    form.append('title', title.trim());
    form.append('description', description.trim());
    form.append('isPublic', String(isPublic));
    appendBookForm(form, book);
    if (cover) {
      form.append('cover', cover);
      form.append('coverStorageType', coverStorage);
    }
    return form;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setError('Please select a file to upload');
    if (!title.trim()) return setError('Please enter a title for the audio file');
    const problem = bookProblem(book);
    if (problem) return setError(problem);
    if (chunkedMode && !chunkedDone)
      return setError('Please complete the chunked upload first or disable chunked upload mode.');
    setError(null);
    setUploading(true);
    try {
      if (chunkedMode && chunked.state.uploadId) {
        // No settling wait before finalize: the last chunk is stored when the server answers.
        await xhrRequest({
          method: 'POST',
          path: `/audio/upload/finalize/${chunked.state.uploadId}`,
          body: detailsForm(),
          timeoutMs: FINALIZE_TIMEOUT_MS,
        });
        forgetUpload(chunked.state.uploadId);
        setSuccess('File uploaded successfully using chunked upload!');
        redirect('/admin/files', 1000);
      } else {
        const form = detailsForm();
        form.append('audio', file);
        await xhrRequest({
          method: 'POST',
          path: '/files',
          body: form,
          onProgress: (sent, total) => setProgress(total ? (sent / total) * 100 : 0),
        });
        setSuccess('File uploaded successfully!');
        redirect('/admin/files', 2000);
      }
    } catch (err) {
      setError(
        errorText(
          err,
          chunkedMode ? 'Chunked upload failed. Please try again.' : 'Failed to upload file. Please try again.',
        ),
      );
      setUploading(false);
    }
  };

  const submitLabel = uploading
    ? 'Uploading...'
    : chunkedMode
      ? chunkedDone
        ? 'Complete Upload'
        : 'Complete Chunked Upload First'
      : 'Upload File';

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <AdminPageHeader title="Upload Audio File" back="/admin/files" />
      <Banner severity="error">{error}</Banner>
      <Banner severity="success">{success}</Banner>
      {bookParts ? (
        <BookUploadForm
          parts={bookParts}
          onReorder={setBookParts}
          onDiscard={() => setBookParts(null)}
          onDone={() => redirect('/admin/files', 2000)}
        />
      ) : (
        <AudioDropZone file={file} onPick={onPickAudio} onPickMany={(files) => void onPickParts(files)} />
      )}
      {!bookParts && file && (
        <Box sx={{ mt: 2 }}>
          {recommendChunked && (
            <Alert severity="info" sx={{ mb: 1 }}>
              This file is larger than 100MB. Chunked upload is recommended and has been turned on: it can be paused and
              resumed.
            </Alert>
          )}
          <FormControlLabel
            control={
              <Switch checked={chunkedMode} disabled={uploading} onChange={(e) => setChunkedMode(e.target.checked)} />
            }
            label="Use Chunked Upload"
          />
          {chunkedMode && (
            <ChunkedUploadPanel
              file={file}
              state={chunked.state}
              onStart={() => void chunked.start()}
              onPause={chunked.pause}
              onResume={() => void chunked.resume()}
              onCancel={() => void chunked.cancel()}
              onRetry={() => void chunked.retry()}
            />
          )}
        </Box>
      )}
      {!bookParts && (
        <Paper component="form" noValidate onSubmit={(e) => void onSubmit(e)} sx={{ p: 3, mt: 3 }}>
          <Typography variant="h6" component="h2">
            File Details
          </Typography>
          {readFrom && (
            <Alert severity="info" sx={{ mt: 1 }}>
              Details below were read from the tags of {readFrom}. Check them and change anything before uploading;
              fields left blank are filled from the file.
            </Alert>
          )}
          <TextField
            label="Title"
            required
            fullWidth
            margin="normal"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
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
          <BookFields book={book} onChange={setBook} />
          <FormControlLabel
            control={<Checkbox checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} />}
            label="Make this file public"
          />
          <CoverPicker
            cover={cover}
            onPick={onPickCover}
            onRemove={() => setCover(null)}
            showStorage
            storage={coverStorage}
            onStorageChange={setCoverStorage}
          />
          {uploading && !chunkedMode && (
            <Box sx={{ mt: 2 }}>
              <LinearProgress variant="determinate" value={progress} aria-label="Upload progress" />
              <Typography variant="body2">{Math.round(progress)}%</Typography>
            </Box>
          )}
          <Button
            type="submit"
            variant="contained"
            size="large"
            sx={{ mt: 3 }}
            disabled={uploading || success !== null}
          >
            {submitLabel}
          </Button>
        </Paper>
      )}
    </Container>
  );
}
