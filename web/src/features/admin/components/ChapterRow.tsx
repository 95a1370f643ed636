import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import StopIcon from '@mui/icons-material/Stop';
import { Box, Chip, IconButton, LinearProgress, ListItem, ListItemText, Stack, Tooltip } from '@mui/material';
import type { AdminChapterFragment, ChapterStatus } from '../../../gql/graphql';
import { formatBytes, formatDateTime } from '../admin-format';
import { chapterSpan } from '../../../components/chapter-time';

export const CHAPTER_STATUS_COLOR: Record<ChapterStatus, 'warning' | 'info' | 'success' | 'error'> = {
  pending: 'warning',
  finalizing: 'info',
  ready: 'success',
  failed: 'error',
};

interface ChapterRowProps {
  chapter: AdminChapterFragment;
  /** All the file's chapters: one with no end shows where the next one starts. */
  chapters: readonly AdminChapterFragment[];
  /** Percent encoded while the chapter is being finalized, as the server last reported it. */
  progress: number | null;
  playing: boolean;
  onPlay: () => void;
  onStop: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One chapter: times, sizes, status and its play, edit and delete actions. */
export function ChapterRow({
  chapter,
  chapters,
  progress,
  playing,
  onPlay,
  onStop,
  onEdit,
  onDelete,
}: ChapterRowProps) {
  const encoding = chapter.status === 'finalizing';
  const details = [
    chapterSpan(chapters, chapter),
    chapter.plainSize != null ? `Plain: ${formatBytes(chapter.plainSize)}` : null,
    chapter.encryptedSize != null ? `Encrypted: ${formatBytes(chapter.encryptedSize)}` : null,
    chapter.finalizedAt ? `Finalized: ${formatDateTime(chapter.finalizedAt)}` : null,
    chapter.error ? `Error: ${chapter.error}` : null,
  ].filter(Boolean);
  return (
    <ListItem
      divider
      secondaryAction={
        <Stack direction="row">
          {playing ? (
            <Tooltip title="Stop">
              <IconButton aria-label={`Stop ${chapter.label}`} onClick={onStop}>
                <StopIcon />
              </IconButton>
            </Tooltip>
          ) : (
            <Tooltip title={chapter.status === 'ready' ? 'Play' : 'Finalize chapters to play'}>
              <span>
                <IconButton aria-label={`Play ${chapter.label}`} disabled={chapter.status !== 'ready'} onClick={onPlay}>
                  <PlayArrowIcon />
                </IconButton>
              </span>
            </Tooltip>
          )}
          <Tooltip title="Edit">
            <IconButton aria-label={`Edit ${chapter.label}`} onClick={onEdit}>
              <EditIcon />
            </IconButton>
          </Tooltip>
          <Tooltip title="Delete">
            <IconButton aria-label={`Delete ${chapter.label}`} color="error" onClick={onDelete}>
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        </Stack>
      }
    >
      <ListItemText
        primary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <span>{chapter.label}</span>
            <Chip size="small" label={chapter.status} color={CHAPTER_STATUS_COLOR[chapter.status]} />
          </Stack>
        }
        // A div, not the default paragraph: the progress bar is a block.
        slotProps={{ secondary: { component: 'div' } }}
        secondary={
          <>
            {details.join(' · ')}
            {encoding && (
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5, maxWidth: 360 }}>
                {/* Queued: no figure yet, so the bar runs without one. */}
                <LinearProgress
                  variant={progress === null ? 'indeterminate' : 'determinate'}
                  value={progress ?? undefined}
                  aria-label={
                    progress === null
                      ? `Finalizing ${chapter.label}: queued`
                      : `Finalizing ${chapter.label}: ${progress}%`
                  }
                  sx={{ flex: 1, display: 'block' }}
                />
                <span aria-hidden>{progress === null ? 'Queued' : `${progress}%`}</span>
              </Box>
            )}
          </>
        }
      />
    </ListItem>
  );
}
