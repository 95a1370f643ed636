import MusicNoteIcon from '@mui/icons-material/MusicNote';
import { Box } from '@mui/material';

interface Props {
  src: string | null | undefined;
  alt: string;
  iconSize?: number;
  /** Called when the image has loaded or failed. */
  onDone?: () => void;
}

/** A cover fitted whole into its box (square covers are not cropped), or a note icon without one. */
export function CoverArt({ src, alt, iconSize, onDone }: Props) {
  return src ? (
    <Box
      component="img"
      src={src}
      alt={alt}
      draggable={false}
      onLoad={onDone}
      onError={onDone}
      sx={{ width: '100%', height: '100%', objectFit: 'contain' }}
    />
  ) : (
    <MusicNoteIcon sx={{ fontSize: iconSize, color: 'text.disabled' }} aria-hidden />
  );
}
