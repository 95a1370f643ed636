import { Box, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { onAccessRevoked } from '../../../app/access-revoked';
import { CoverArt } from '../../../components/CoverArt';
import { WantToListenToggle } from '../../collections/components/WantToListenToggle';
import { lazyOnOpen } from '../../../components/lazy-on-open';
import { useGradualCount } from '../../../components/useGradualCount';
import type { CheckpointItemFragment } from '../../../gql/graphql';
import { useChapterPlayback } from '../hooks/useChapterPlayback';
import { useCheckpoints } from '../hooks/useCheckpoints';
import { usePlayerShortcuts } from '../hooks/usePlayerShortcuts';
import { BookCredits } from '../../catalog/components/BookCredits';
import { usePlayer, type PlayerFile } from '../player-context';
import { ChapterList } from './ChapterList';
import { CheckpointList } from './CheckpointList';
import { SecurePlayer } from './SecurePlayer';

// Most visits open none of them: their code loads, and they are drawn, the first time they open.
const AddCheckpointDialog = lazyOnOpen(
  () => import('./AddCheckpointDialog').then((m) => m.AddCheckpointDialog),
  'AddCheckpointDialog',
);
const ShortcutsDialog = lazyOnOpen(() => import('./ShortcutsDialog').then((m) => m.ShortcutsDialog), 'ShortcutsDialog');
const ConfirmDialog = lazyOnOpen(
  () => import('../../../components/ConfirmDialog').then((m) => m.ConfirmDialog),
  'ConfirmDialog',
);

/** Runs `fn` once the browser has painted what is on screen now (a frame, then a task). */
function afterPaint(fn: () => void): void {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

/** A cover slower than this does not hold back the rest of the page. */
const COVER_WAIT_MS = 1000;

/**
 * The full view of the app's player for one file, with its chapters and checkpoints. `prefetched`:
 * the file's checkpoints were asked for as the page's code loaded (PlayerPage).
 */
export function PlayerContent({ file, prefetched }: { file: PlayerFile; prefetched: boolean }) {
  const player = usePlayer();
  const { playback, open, cover } = player;
  const chapters = useChapterPlayback(file.id);
  const { checkpoints, add, del } = useCheckpoints(file.id, prefetched);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [toDelete, setToDelete] = useState<CheckpointItemFragment | null>(null);
  const { pause } = playback;
  const { stopChapter } = chapters;
  // The cover of the file on screen, which is the loaded one once `open` has run.
  const shownCover = player.file?.id === file.id ? cover : null;
  // The cover, the page's largest picture, is drawn first: the rest waits until it has painted or
  // failed to load, or at most COVER_WAIT_MS (a failed request, a hidden tab that paints nothing).
  const [coverDone, setCoverDone] = useState(!file.coverUrl);
  const finishCover = useCallback(() => afterPaint(() => setCoverDone(true)), []);
  useEffect(() => {
    const timer = setTimeout(() => setCoverDone(true), COVER_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  // Then drawn in steps, each its own short task: the controls, then the chapters, then the
  // checkpoints. In one go it is the page's longest task.
  const sections = useGradualCount(coverDone ? 3 : 0, file.id, 0, 1);

  useEffect(() => open(file), [file, open]);

  const showShortcuts = useCallback(() => setShortcutsOpen(true), []);
  usePlayerShortcuts(player, showShortcuts);

  // The main player stops in PlayerProvider; the chapter player of this page stops here.
  useEffect(
    () =>
      onAccessRevoked((fileId) => {
        if (!fileId || fileId === file.id) void stopChapter();
      }),
    [file.id, stopChapter],
  );

  // One sound at a time: the chapter player and the main player never play together.
  const playChapter = (chapterId: string, label: string) => {
    pause();
    void chapters.playChapter(chapterId, label);
  };
  const jump = (timestamp: number) => {
    void stopChapter();
    void playback.seek(timestamp);
  };

  return (
    <Stack spacing={3} sx={{ userSelect: 'none' }}>
      <Box
        sx={{
          aspectRatio: '16 / 9',
          maxHeight: 360,
          bgcolor: 'action.selected',
          borderRadius: 1,
          overflow: 'hidden',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }}
      >
        <CoverArt src={shownCover} alt={file.title} iconSize={96} onDone={finishCover} />
      </Box>
      <Box>
        <Typography variant="h4" component="h1" gutterBottom>
          {file.title}
        </Typography>
        <BookCredits book={file} sx={{ mb: 1 }} />
        <Typography color="text.secondary">{file.description || 'No description'}</Typography>
        <Box sx={{ mt: 2 }}>
          <WantToListenToggle fileId={file.id} active={file.wantToListen} variant="button" />
        </Box>
      </Box>

      {sections >= 1 && <SecurePlayer onShowShortcuts={showShortcuts} />}
      {sections >= 2 && <ChapterList chapters={file.chapters} playback={chapters} onPlay={playChapter} />}
      {sections >= 3 && (
        <CheckpointList
          checkpoints={checkpoints}
          onAdd={() => setDialogOpen(true)}
          onJump={jump}
          onDelete={setToDelete}
        />
      )}

      <AddCheckpointDialog
        open={dialogOpen}
        currentPosition={playback.position}
        onClose={() => setDialogOpen(false)}
        onSave={(entry) => void add(entry)}
      />
      <ShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} jumps={player.jumps} />
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Checkpoint"
        message="Are you sure you want to delete this checkpoint?"
        confirmLabel="Delete"
        danger
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) void del(toDelete.id);
          setToDelete(null);
        }}
      />
    </Stack>
  );
}
