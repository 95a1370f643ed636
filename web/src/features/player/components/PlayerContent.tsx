import { Box, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { onAccessRevoked } from '../../../app/access-revoked';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { CoverArt } from '../../../components/CoverArt';
import { useGradualCount } from '../../../components/useGradualCount';
import type { CheckpointItemFragment } from '../../../gql/graphql';
import { useChapterPlayback } from '../hooks/useChapterPlayback';
import { useCheckpoints } from '../hooks/useCheckpoints';
import { usePlayerShortcuts } from '../hooks/usePlayerShortcuts';
import { usePlayer, type PlayerFile } from '../player-context';
import { AddCheckpointDialog } from './AddCheckpointDialog';
import { ChapterList } from './ChapterList';
import { CheckpointList } from './CheckpointList';
import { SecurePlayer } from './SecurePlayer';
import { ShortcutsDialog } from './ShortcutsDialog';

/** The full view of the app's player for one file, with its chapters and checkpoints. */
export function PlayerContent({ file }: { file: PlayerFile }) {
  const player = usePlayer();
  const { playback, open, cover } = player;
  const chapters = useChapterPlayback(file.id);
  const { checkpoints, add, del } = useCheckpoints(file.id);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [toDelete, setToDelete] = useState<CheckpointItemFragment | null>(null);
  const { pause } = playback;
  const { stopChapter } = chapters;
  // The cover of the file on screen, which is the loaded one once `open` has run.
  const shownCover = player.file?.id === file.id ? cover : null;
  // Drawn in steps, each its own short task: the cover and title, then the controls, then the
  // chapters, then the checkpoints. In one go it is the page's longest task.
  const sections = useGradualCount(3, file.id, 0, 1);

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
        <CoverArt src={shownCover} alt={file.title} iconSize={96} />
      </Box>
      <Box>
        <Typography variant="h4" component="h1" gutterBottom>
          {file.title}
        </Typography>
        <Typography color="text.secondary">{file.description || 'No description'}</Typography>
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
      <ShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
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
