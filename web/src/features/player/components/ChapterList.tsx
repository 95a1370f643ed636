import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import StopIcon from '@mui/icons-material/Stop';
import {
  Alert,
  Chip,
  CircularProgress,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Typography,
} from '@mui/material';
import type { PlayerFileQuery } from '../../../gql/graphql';
import { chapterSpan } from '../../../components/chapter-time';
import { formatTime } from '../../../components/format-time';
import type { ChapterPlayback } from '../hooks/useChapterPlayback';

type Chapter = PlayerFileQuery['audioFile']['chapters'][number];

interface Props {
  chapters: Chapter[];
  playback: ChapterPlayback;
  onPlay: (chapterId: string, label: string) => void;
}

/** The file's chapters; ready ones play as encrypted HLS, the rest show as Processing. */
export function ChapterList({ chapters, playback, onPlay }: Props) {
  const { audioRef, activeChapterId, loadingChapterId, error, position, playing, stopChapter } = playback;
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        Chapters
      </Typography>
      {/* Shaka attaches here; it stays hidden because the list is the interface. */}
      <audio ref={audioRef} onContextMenu={(e) => e.preventDefault()} hidden />
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {chapters.length === 0 ? (
        <Typography color="text.secondary">No chapters available</Typography>
      ) : (
        <List dense>
          {chapters.map((chapter) => {
            const ready = chapter.status === 'ready';
            const active = activeChapterId === chapter.id;
            return (
              <ListItem
                key={chapter.id}
                divider
                secondaryAction={
                  active ? (
                    <IconButton edge="end" aria-label={`Stop ${chapter.label}`} onClick={() => void stopChapter()}>
                      <StopIcon />
                    </IconButton>
                  ) : loadingChapterId === chapter.id ? (
                    <CircularProgress size={24} aria-label={`Loading ${chapter.label}`} />
                  ) : (
                    <IconButton
                      edge="end"
                      aria-label={`Play ${chapter.label}`}
                      disabled={!ready || loadingChapterId !== null}
                      onClick={() => onPlay(chapter.id, chapter.label)}
                    >
                      <PlayArrowIcon />
                    </IconButton>
                  )
                }
              >
                <ListItemText
                  primary={chapter.label}
                  secondary={
                    active
                      ? `${playing ? 'Playing' : 'Paused'} ${formatTime(position)}`
                      : chapterSpan(chapters, chapter)
                  }
                />
                <Chip
                  size="small"
                  sx={{ mr: 4 }}
                  label={ready ? 'Ready' : 'Processing'}
                  color={ready ? 'success' : 'default'}
                  variant="outlined"
                />
              </ListItem>
            );
          })}
        </List>
      )}
    </Paper>
  );
}
