import AccessTimeIcon from '@mui/icons-material/AccessTime';
import PublicIcon from '@mui/icons-material/Public';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { Box, Card, CardActionArea, CardContent, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { memo, useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { LibraryFileFragment } from '../../../gql/graphql';
import { CoverArt } from '../../../components/CoverArt';
import { formatTime } from '../../../components/format-time';
import { BookCredits } from '../../catalog/components/BookCredits';
import { WantToListenToggle } from '../../collections/components/WantToListenToggle';
import { formatDuration } from '../format-duration';
import { isCoverInHand, useCoverImage } from '../hooks/useCoverImage';
import { useWhenVisible } from '../hooks/useWhenVisible';

export type LibraryFile = LibraryFileFragment;

/**
 * How far the caller got in a file they started: a bar and the time left; a full bar once finished
 * (the "Finished" chip says so beside it).
 */
function ListeningProgress({ file }: { file: LibraryFile }) {
  const progress = file.progress;
  if (!progress || (!progress.finished && progress.position <= 0)) return null;
  if (progress.finished) {
    return (
      <Box sx={{ mt: 1.5 }}>
        <LinearProgress variant="determinate" value={100} color="success" aria-label="Finished: 100% listened" />
      </Box>
    );
  }
  const percent = file.duration > 0 ? Math.min(100, (progress.position / file.duration) * 100) : 0;
  return (
    <Box sx={{ mt: 1.5 }}>
      <LinearProgress variant="determinate" value={percent} aria-label={`${Math.round(percent)}% listened`} />
      <Typography variant="caption" color="text.secondary">
        {formatTime(Math.max(0, file.duration - progress.position))} left
      </Typography>
    </Box>
  );
}

/** A cover near the screen but not on it is asked for this long after those on it. */
const NEAR_DELAY_MS = 300;

/** Whether the observed element is on the screen itself, not only within the observer's margin. */
function onScreen({ boundingClientRect: box }: IntersectionObserverEntry): boolean {
  return box.top < window.innerHeight && box.bottom > 0 && box.left < window.innerWidth && box.right > 0;
}

/**
 * The spec's 16:9 cover area; the image is fitted whole inside it (square covers are not cropped).
 * Fetched only once the card comes near the viewport, as `<img loading="lazy">` would be: a phone
 * showing one card does not spend its bandwidth on the twenty-three below before the one in view.
 * A card on the screen asks at once; one only near it a moment later, so that on a slow connection
 * the covers in view do not share it with those below.
 */
function Cover({ file }: { file: LibraryFile }) {
  // A cover already on its way (the first card's, prefetched, or another card's showing the same
  // file) costs nothing more: no need to wait for the observer.
  const [wanted, setWanted] = useState<'no' | 'soon' | 'now'>(() =>
    file.coverThumbnailUrl !== null && isCoverInHand(file.coverThumbnailUrl) ? 'now' : 'no',
  );
  // Observed only until 'now': a card seen near the screen again stays 'soon', its timer running.
  const reveal = useCallback((entry: IntersectionObserverEntry) => setWanted(onScreen(entry) ? 'now' : 'soon'), []);
  const ref = useWhenVisible<HTMLDivElement>(reveal, wanted !== 'now' && file.coverThumbnailUrl !== null);
  useEffect(() => {
    if (wanted !== 'soon') return;
    const timer = setTimeout(() => setWanted('now'), NEAR_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  const src = useCoverImage(wanted === 'now' ? file.coverThumbnailUrl : null);
  return (
    <Box
      ref={ref}
      sx={{
        aspectRatio: '16 / 9',
        bgcolor: 'action.selected',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
      }}
    >
      <CoverArt src={src} alt={file.title} iconSize={64} />
    </Box>
  );
}

/**
 * A file's card; its button opens the file's player. Memoised: the lists holding cards are drawn a
 * few cards at a time, and each step re-rendered every card already drawn (Apollo hands back the
 * same object for a file that did not change, so those now skip).
 */
export const AudioFileCard = memo(function AudioFileCard({ file }: { file: LibraryFile }) {
  const navigate = useNavigate();
  return (
    <Card sx={{ height: '100%', display: 'flex', flexDirection: 'column', position: 'relative' }}>
      <CardActionArea
        onClick={() => void navigate(`/player/${file.id}`)}
        sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <Cover file={file} />
        <CardContent sx={{ flexGrow: 1 }}>
          <Typography variant="h6" component="h2" gutterBottom noWrap title={file.title}>
            {file.title}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ mb: 2, display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
          >
            {file.description || 'No description'}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {file.duration > 0 && (
              <Chip size="small" icon={<AccessTimeIcon />} label={formatDuration(file.duration)} variant="outlined" />
            )}
            {file.isPublic && (
              <Chip size="small" icon={<PublicIcon />} label="Public" color="success" variant="outlined" />
            )}
            {file.progress?.finished && (
              <Chip size="small" icon={<CheckCircleIcon />} label="Finished" color="success" variant="outlined" />
            )}
          </Stack>
          <ListeningProgress file={file} />
        </CardContent>
      </CardActionArea>
      {/* Links to the author's and the series' pages: beside the card's button, never inside it. */}
      <BookCredits book={file} narrators={false} sx={{ px: 2, pb: 1.5, pt: 0.5 }} />
      {/* Beside the card's own button, not inside it: a button may not hold another. */}
      <Box sx={{ position: 'absolute', top: 8, right: 8 }}>
        <WantToListenToggle fileId={file.id} active={file.wantToListen} variant="icon" />
      </Box>
    </Card>
  );
});
