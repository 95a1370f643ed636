import { useMutation } from '@apollo/client/react';
import BookmarkAddOutlinedIcon from '@mui/icons-material/BookmarkAddOutlined';
import BookmarkAddedIcon from '@mui/icons-material/BookmarkAdded';
import { Button, IconButton, Tooltip } from '@mui/material';
import { AddToWantToListenDocument, RemoveFromWantToListenDocument } from '../../../gql/graphql';

interface Props {
  fileId: string;
  /** Whether the file is on the caller's list now. */
  active: boolean;
  /** An icon over a library card, or a labelled button on the player. */
  variant: 'icon' | 'button';
}

/** Puts a file on the caller's own "Want to listen" list, or takes it off; the shelf follows. */
export function WantToListenToggle({ fileId, active, variant }: Props) {
  // The answer carries the file's new flag, which Apollo writes to every card of that file.
  const options = { variables: { fileId }, refetchQueries: ['WantToListen'] };
  const [add, adding] = useMutation(AddToWantToListenDocument, options);
  const [remove, removing] = useMutation(RemoveFromWantToListenDocument, options);
  const busy = adding.loading || removing.loading;
  const toggle = () => void (active ? remove() : add()).catch(() => undefined);
  const hint = active ? 'Remove from Want to listen' : 'Add to Want to listen';
  const icon = active ? <BookmarkAddedIcon /> : <BookmarkAddOutlinedIcon />;
  if (variant === 'button') {
    return (
      <Button
        variant={active ? 'contained' : 'outlined'}
        startIcon={icon}
        aria-pressed={active}
        title={hint}
        disabled={busy}
        onClick={toggle}
      >
        Want to listen
      </Button>
    );
  }
  return (
    <Tooltip title={hint}>
      <IconButton
        aria-label="Want to listen"
        aria-pressed={active}
        disabled={busy}
        onClick={toggle}
        color={active ? 'primary' : 'default'}
        sx={{ bgcolor: 'background.paper', boxShadow: 1, '&:hover': { bgcolor: 'background.paper' } }}
      >
        {icon}
      </IconButton>
    </Tooltip>
  );
}
