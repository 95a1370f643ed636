import ImageIcon from '@mui/icons-material/Image';
import {
  Box,
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { useObjectUrl } from '../../../components/useObjectUrl';

export type CoverStorageType = 'file' | 'base64';
export const COVER_MAX_BYTES = 5 * 1024 * 1024;

/** The cover check of the spec; null when the image is acceptable. */
export function coverProblem(image: File): string | null {
  if (!image.type.startsWith('image/')) return 'Please select an image file (JPG, PNG, etc.)';
  if (image.size > COVER_MAX_BYTES) return 'Cover image must be less than 5MB';
  return null;
}

interface CoverPickerProps {
  cover: File | null;
  onPick: (file: File) => void;
  onRemove: () => void;
  /** Shown instead of a preview of `cover` when no new image is chosen (edit screen). */
  currentUrl?: string | null;
  removeLabel?: string;
  showStorage: boolean;
  storage: CoverStorageType;
  onStorageChange: (storage: CoverStorageType) => void;
}

/** Optional cover image with preview, Remove and the storage choice. */
export function CoverPicker({
  cover,
  onPick,
  onRemove,
  currentUrl,
  removeLabel = 'Remove',
  showStorage,
  storage,
  onStorageChange,
}: CoverPickerProps) {
  const preview = useObjectUrl(cover);
  const shown = preview ?? currentUrl ?? null;

  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle2" gutterBottom>
        Cover Image (optional)
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        {shown && (
          <Box
            component="img"
            src={shown}
            alt="Cover preview"
            sx={{ width: 120, height: 120, objectFit: 'cover', borderRadius: 1 }}
          />
        )}
        <Stack spacing={1}>
          <Button variant="outlined" component="label" startIcon={<ImageIcon />}>
            {shown ? 'Change Cover' : 'Choose Cover Image'}
            <input
              hidden
              type="file"
              accept="image/*"
              aria-label="Cover image"
              onChange={(e) => {
                const picked = e.target.files?.[0];
                e.target.value = '';
                if (picked) onPick(picked);
              }}
            />
          </Button>
          {shown && (
            <Button color="error" onClick={onRemove}>
              {removeLabel}
            </Button>
          )}
        </Stack>
      </Stack>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        JPG, PNG, GIF, WebP, max 5MB. 500x500px or larger recommended.
      </Typography>
      {showStorage && (
        <FormControl sx={{ mt: 1 }}>
          <FormLabel id="cover-storage-label">Cover Image Storage</FormLabel>
          <RadioGroup
            row
            aria-labelledby="cover-storage-label"
            value={storage}
            onChange={(e) => onStorageChange(e.target.value === 'base64' ? 'base64' : 'file')}
          >
            <FormControlLabel value="file" control={<Radio />} label="File Storage" />
            <FormControlLabel value="base64" control={<Radio />} label="Database Storage" />
          </RadioGroup>
        </FormControl>
      )}
    </Box>
  );
}
