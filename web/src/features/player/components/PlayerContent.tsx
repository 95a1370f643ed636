import MusicNoteIcon from '@mui/icons-material/MusicNote';
import { Box, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { onAccessRevoked } from '../../../app/access-revoked';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import type { CheckpointItemFragment, PlayerFileQuery } from '../../../gql/graphql';
import { useCoverImage } from '../../library/hooks/useCoverImage';
import { useChapterPlayback } from '../hooks/useChapterPlayback';
import { useCheckpoints } from '../hooks/useCheckpoints';
import { useSecurePlayback } from '../hooks/useSecurePlayback';
import { installContentProtection } from '../media-protection';
import { AddCheckpointDialog } from './AddCheckpointDialog';
import { ChapterList } from './ChapterList';
import { CheckpointList } from './CheckpointList';
import { SecurePlayer } from './SecurePlayer';

type PlayerFile = PlayerFileQuery['audioFile'];

export function PlayerContent({ file }: { file: PlayerFile }) {
  const playback = useSecurePlayback(file.id, file.duration);
  const chapters = useChapterPlayback(file.id);
  const { checkpoints, add, del } = useCheckpoints(file.id);
  const cover = useCoverImage(file.coverUrl);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [toDelete, setToDelete] = useState<CheckpointItemFragment | null>(null);
  const { stop, pause } = playback;
  const { stopChapter } = chapters;

  useEffect(installContentProtection, []);

  useEffect(
    () =>
      onAccessRevoked((fileId, message) => {
        if (fileId && fileId !== file.id) return;
        stop(message);
        void stopChapter();
      }),
    [file.id, stop, stopChapter],
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
          bgcolor: 'grey.200',
          borderRadius: 1,
          overflow: 'hidden',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }}
      >
        {cover ? (
          <Box component="img" src={cover} alt={file.title} draggable={false} sx={{ width: '100%', height: '100%', objectFit: 'contain' }} />
        ) : (
          <MusicNoteIcon sx={{ fontSize: 96, color: 'grey.500' }} aria-hidden />
        )}
      </Box>
      <Box>
        <Typography variant="h4" component="h1" gutterBottom>
          {file.title}
        </Typography>
        <Typography color="text.secondary">{file.description || 'No description'}</Typography>
      </Box>

      <SecurePlayer playback={playback} />
      <ChapterList chapters={file.chapters} playback={chapters} onPlay={playChapter} />
      <CheckpointList
        checkpoints={checkpoints}
        onAdd={() => setDialogOpen(true)}
        onJump={jump}
        onDelete={setToDelete}
      />

      <AddCheckpointDialog
        open={dialogOpen}
        currentPosition={playback.position}
        onClose={() => setDialogOpen(false)}
        onSave={(entry) => void add(entry)}
      />
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
