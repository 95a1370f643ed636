import AddIcon from '@mui/icons-material/Add';
import LibraryAddIcon from '@mui/icons-material/LibraryAdd';
import LockIcon from '@mui/icons-material/Lock';
import {
  Alert,
  Button,
  Chip,
  FormControl,
  InputLabel,
  List,
  MenuItem,
  Paper,
  Select,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import type { AdminChapterFragment, SegmentStorage } from '../../../gql/graphql';
import { useChapterPlayback, type ChapterPlaybackTexts } from '../../player/hooks/useChapterPlayback';
import { errorText } from '../admin-format';
import { useChapters, type FinalizeOutcome } from '../hooks/useChapters';
import { useTimedMessage } from '../hooks/useTimedMessage';
import { ChapterDialog, type ChapterDraft } from './ChapterDialog';
import { ChapterRow } from './ChapterRow';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Banner } from '../../../components/Banner';

type Editing = { chapter: AdminChapterFragment | null } | null;

/** Chapter Management inside Edit File: define, finalize (encrypt) and play chapters. */
const ADMIN_TEXTS: ChapterPlaybackTexts = {
  noStream: (_message, label) => `Failed to play chapter: ${label}`,
  notStarted: (message) => `Failed to start chapter playback: ${message}`,
};

export function ChapterManager({ fileId }: { fileId: string }) {
  const chapters = useChapters(fileId);
  // Taken apart so the audio element's ref is not read with the rendered values.
  const {
    audioRef,
    error: playbackError,
    activeChapterId,
    playing,
    position,
    playChapter,
    stopChapter,
  } = useChapterPlayback(fileId, ADMIN_TEXTS);
  const [storage, setStorage] = useState<SegmentStorage>('filesystem');
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [confirmFinalize, setConfirmFinalize] = useState(false);
  const [toDelete, setToDelete] = useState<AdminChapterFragment | null>(null);
  const [success, setSuccess] = useTimedMessage(3000);
  const [error, setError] = useState<string | null>(null);
  const { summary } = chapters;
  // Finalizing lasts while the request is out and while any chapter is queued or encoding, as the
  // server says (so also after a reload or when another administrator started it).
  const busyFinalizing = chapters.finalizing || summary.finalizing > 0;

  const attempt = async (action: () => Promise<void>, fallback: string) => {
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(errorText(err, fallback));
    }
  };

  const onSave = (draft: ChapterDraft) =>
    attempt(async () => {
      setSaving(true);
      try {
        if (editing?.chapter) {
          await chapters.update(editing.chapter.id, draft);
          setSuccess('Chapter updated successfully');
        } else {
          await chapters.add(draft, chapters.chapters.length);
          setSuccess('Chapter added successfully');
        }
        setEditing(null);
      } finally {
        setSaving(false);
      }
    }, 'Failed to save chapter');

  // The request only queues the chapters; the outcome is told once the last of them settles.
  const onFinalized = ({ finalized, failed }: FinalizeOutcome) => {
    if (failed.length > 0) {
      console.error(
        'Chapter finalization errors',
        failed.map((c) => ({ chapterId: c.id, label: c.label, message: c.error })),
      );
      setError(`Finalized ${finalized} chapters with ${failed.length} errors. Check console for details.`);
    } else {
      setSuccess(`Successfully finalized ${finalized} chapters!`);
    }
  };

  const onFinalize = async () => {
    setConfirmFinalize(false);
    setError(null);
    try {
      await chapters.finalize(storage, onFinalized);
    } catch (err) {
      setError(`Failed to finalize chapters: ${errorText(err, 'Unknown error')}`);
    }
  };

  const onPlay = (chapter: AdminChapterFragment) => {
    if (chapter.status !== 'ready') {
      setError('Chapter is not ready for playback. Please finalize chapters first.');
      return;
    }
    void playChapter(chapter.id, chapter.label);
  };

  return (
    <Paper sx={{ p: 3, mt: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        Chapter Management
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
        <Chip label={`Pending: ${summary.pending}`} color="warning" />
        {summary.finalizing > 0 && <Chip label={`Finalizing: ${summary.finalizing}`} color="info" />}
        <Chip label={`Ready: ${summary.ready}`} color="success" />
        <Chip label={`Failed: ${summary.failed}`} color="error" />
      </Stack>
      {/* Small controls that never wrap their words: the row fits the Edit File column at 1280 px,
          and on a narrower screen a whole button moves to the next line. */}
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ mb: 2, alignItems: { md: 'center' }, flexWrap: 'wrap', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
        useFlexGap
      >
        <FormControl size="small" sx={{ minWidth: 180 }}>
          <InputLabel id="chapter-storage-label">Chapter Storage</InputLabel>
          <Select
            labelId="chapter-storage-label"
            label="Chapter Storage"
            value={storage}
            onChange={(e) => setStorage(e.target.value === 'database' ? 'database' : 'filesystem')}
          >
            <MenuItem value="database">Database</MenuItem>
            <MenuItem value="filesystem">Filesystem</MenuItem>
          </Select>
        </FormControl>
        <Button
          size="small"
          variant="contained"
          startIcon={<LockIcon />}
          disabled={summary.pending === 0 || busyFinalizing}
          onClick={() => setConfirmFinalize(true)}
        >
          {busyFinalizing ? 'Finalizing...' : 'Finalize Chapters'}
        </Button>
        <Button
          size="small"
          variant="outlined"
          startIcon={<LibraryAddIcon />}
          disabled={chapters.loadingSamples || chapters.chapters.length > 0}
          onClick={() => void attempt(chapters.loadSamples, 'Failed to load sample chapters')}
        >
          Load Sample Chapters
        </Button>
        <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing({ chapter: null })}>
          Add Chapter
        </Button>
      </Stack>
      {/* Shaka attaches here; the rows are the controls. */}
      <audio ref={audioRef} hidden />
      <Banner severity="success">{success}</Banner>
      <Banner severity="error">{error}</Banner>
      <Banner severity="error">{playbackError}</Banner>
      {chapters.error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(chapters.error, 'Failed to load chapters')}
        </Alert>
      )}
      {activeChapterId && (
        <Typography variant="body2" sx={{ mb: 1 }} aria-live="polite">
          {playing ? 'Playing' : 'Paused'}: {chapters.chapters.find((c) => c.id === activeChapterId)?.label} (
          {Math.floor(position)}s)
        </Typography>
      )}
      {chapters.chapters.length === 0 && !chapters.loading ? (
        <Typography color="text.secondary">No chapters defined. Add chapters to enable segmented streaming.</Typography>
      ) : (
        <List aria-label="Chapters">
          {chapters.chapters.map((chapter) => (
            <ChapterRow
              key={chapter.id}
              chapter={chapter}
              chapters={chapters.chapters}
              progress={chapters.progress.get(chapter.id) ?? null}
              playing={activeChapterId === chapter.id}
              onPlay={() => onPlay(chapter)}
              onStop={() => void stopChapter()}
              onEdit={() => setEditing({ chapter })}
              onDelete={() => setToDelete(chapter)}
            />
          ))}
        </List>
      )}
      {editing && (
        <ChapterDialog
          initial={editing.chapter}
          busy={saving}
          onSave={(d) => void onSave(d)}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={confirmFinalize}
        title="Finalize Chapters"
        confirmLabel="Finalize"
        onConfirm={() => void onFinalize()}
        onCancel={() => setConfirmFinalize(false)}
        danger
        message={`This will process and encrypt all pending chapters. This operation cannot be undone. Continue?`}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Chapter"
        confirmLabel="Delete"
        onConfirm={() => {
          const chapter = toDelete;
          setToDelete(null);
          if (chapter)
            void attempt(async () => {
              await chapters.remove(chapter.id);
              setSuccess('Chapter deleted successfully');
            }, 'Failed to delete chapter');
        }}
        onCancel={() => setToDelete(null)}
        danger
        message={`Delete the chapter "${toDelete?.label ?? ''}"? Its encrypted segments are removed too.`}
      />
    </Paper>
  );
}
