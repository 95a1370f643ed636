import { useMutation, useQuery } from '@apollo/client/react';
import AddIcon from '@mui/icons-material/Add';
import { Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import {
  AdminCollectionsDocument,
  CreateCollectionDocument,
  DeleteCollectionDocument,
  type AdminCollectionFragment,
} from '../../../gql/graphql';
import { AdminListPage } from '../../admin/components/AdminListPage';
import { useBanners } from '../../admin/hooks/useBanners';
import { useConfirmedAction } from '../../admin/hooks/useConfirmedAction';

const filesLabel = (count: number) => (count === 1 ? '1 file' : `${count} files`);

/** Administrators: every collection, a form to make one, and a way to each one's editor. */
export function CollectionsAdminPage() {
  const navigate = useNavigate();
  const banners = useBanners({ successMs: 3000 });
  const { data, error } = useQuery(AdminCollectionsDocument, { fetchPolicy: 'cache-and-network' });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [create, creating] = useMutation(CreateCollectionDocument, { refetchQueries: ['AdminCollections'] });
  const [remove] = useMutation(DeleteCollectionDocument, { refetchQueries: ['AdminCollections'] });

  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    await banners.attempt(async () => {
      const made = await create({ variables: { input: { name, description: description || null } } });
      setName('');
      setDescription('');
      const id = made.data?.createCollection.id;
      if (id) void navigate(`/admin/collections/${id}`);
      return 'Collection created';
    }, 'Failed to create the collection');
  };

  const deletion = useConfirmedAction<AdminCollectionFragment>({
    title: 'Delete Collection',
    confirmLabel: 'Delete',
    message: (c) => `Delete the collection "${c.name}"? Its files stay in the library.`,
    run: (c) =>
      banners.attempt(async () => {
        await remove({ variables: { id: c.id } });
        return `Collection "${c.name}" deleted`;
      }, 'Failed to delete the collection'),
  });

  const collections = data?.collections ?? [];
  return (
    <AdminListPage
      title="Collections"
      back="/admin"
      banners={banners}
      loadError={error ? 'Failed to fetch collections' : null}
    >
      <Paper component="form" onSubmit={(e) => void onCreate(e)} sx={{ p: 2, mb: 3 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          New collection
        </Typography>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'flex-start' } }}>
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            slotProps={{ htmlInput: { maxLength: 200 } }}
            sx={{ flex: 1 }}
          />
          <TextField
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 2000 } }}
            sx={{ flex: 2 }}
          />
          <Button
            type="submit"
            variant="contained"
            startIcon={<AddIcon />}
            disabled={creating.loading || !name.trim()}
            sx={{ alignSelf: { md: 'center' } }}
          >
            Create Collection
          </Button>
        </Stack>
      </Paper>

      {collections.length === 0 && !error ? (
        <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
          No collections yet
        </Typography>
      ) : (
        <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Collections">
          {collections.map((collection) => (
            <Paper key={collection.id} component="li" sx={{ p: 2 }}>
              <Stack
                direction={{ xs: 'column', sm: 'row' }}
                spacing={2}
                sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
              >
                <div>
                  <Typography variant="h6" component="h3">
                    {collection.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {filesLabel(collection.fileCount)}
                    {collection.description ? ` · ${collection.description}` : ''}
                  </Typography>
                </div>
                <Stack direction="row" spacing={1}>
                  <Button
                    variant="outlined"
                    onClick={() => void navigate(`/admin/collections/${collection.id}`)}
                    aria-label={`Edit ${collection.name}`}
                  >
                    Edit
                  </Button>
                  <Button
                    variant="outlined"
                    color="error"
                    onClick={() => deletion.ask(collection)}
                    aria-label={`Delete ${collection.name}`}
                  >
                    Delete
                  </Button>
                </Stack>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
      {deletion.dialog}
    </AdminListPage>
  );
}
