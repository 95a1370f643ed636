import { useMutation, useQuery } from '@apollo/client/react';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  Autocomplete,
  Button,
  Container,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/Banner';
import {
  AddToCollectionDocument,
  AdminCollectionDocument,
  CollectionFileChoicesDocument,
  RemoveFromCollectionDocument,
  ReorderCollectionDocument,
  UpdateCollectionDocument,
  type AdminCollectionFragment,
} from '../../../gql/graphql';
import { AdminPageHeader } from '../../admin/components/AdminPageHeader';
import { useBanners } from '../../admin/hooks/useBanners';
import { useDebouncedValue } from '../../library/hooks/useDebouncedValue';
import { formatDuration } from '../../library/format-duration';

type Choice = { id: string; title: string };

/** Name and description, saved together. Keyed by the collection, so it starts from what is stored. */
function DetailsForm({
  collection,
  onSave,
}: {
  collection: AdminCollectionFragment;
  onSave: (n: string, d: string) => void;
}) {
  const [name, setName] = useState(collection.name);
  const [description, setDescription] = useState(collection.description ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(name, description);
  };
  return (
    <Paper component="form" onSubmit={submit} sx={{ p: 2, mb: 3 }}>
      <Stack spacing={2}>
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <TextField
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          multiline
          minRows={2}
          slotProps={{ htmlInput: { maxLength: 2000 } }}
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={!name.trim()}>
            Save
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** Picks a file of the library by title and puts it at the end of the collection. */
function AddFile({ exclude, onAdd }: { exclude: Set<string>; onAdd: (fileId: string) => void }) {
  const [input, setInput] = useState('');
  const search = useDebouncedValue(input.trim(), 250);
  const { data, loading } = useQuery(CollectionFileChoicesDocument, { variables: { search: search || null } });
  const options: Choice[] = (data?.audioFilesConnection.edges ?? [])
    .map((edge) => edge.node)
    .filter((file) => !exclude.has(file.id));
  return (
    <Autocomplete<Choice>
      options={options}
      loading={loading}
      value={null}
      inputValue={input}
      onInputChange={(_e, value) => setInput(value)}
      onChange={(_e, choice) => {
        if (choice) onAdd(choice.id);
        setInput('');
      }}
      getOptionLabel={(option) => option.title}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(all) => all}
      noOptionsText="No matching audio files found"
      renderInput={(params) => <TextField {...params} label="Add a file" />}
    />
  );
}

/** Administrators: a collection's name, description and files, in an order they choose. */
export function CollectionEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const banners = useBanners({ successMs: 3000 });
  const { data, error } = useQuery(AdminCollectionDocument, { variables: { id }, fetchPolicy: 'cache-and-network' });
  const [update] = useMutation(UpdateCollectionDocument);
  const [add] = useMutation(AddToCollectionDocument);
  const [remove] = useMutation(RemoveFromCollectionDocument);
  const [reorder, reordering] = useMutation(ReorderCollectionDocument);
  const collection = data?.collection;
  const files = collection?.files ?? [];

  const move = (from: number, to: number) => {
    const order = files.map((file) => file.id);
    const [moved] = order.splice(from, 1);
    order.splice(to, 0, moved);
    void banners.attempt(async () => {
      await reorder({ variables: { id, fileIds: order } });
      return `Moved "${files[from].title}" to place ${to + 1}`;
    }, 'Failed to reorder the collection');
  };

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <AdminPageHeader title={collection ? `Edit ${collection.name}` : 'Edit Collection'} back="/admin/collections">
        {collection && (
          <Button variant="outlined" onClick={() => void navigate(`/collections/${collection.id}`)}>
            View
          </Button>
        )}
      </AdminPageHeader>
      <Banner severity="success">{banners.success}</Banner>
      <Banner severity="error">{banners.error}</Banner>
      <Banner severity="error">{error ? error.message || 'Failed to fetch the collection' : null}</Banner>
      {collection && (
        <>
          <DetailsForm
            key={collection.id}
            collection={collection}
            onSave={(name, description) =>
              void banners.attempt(async () => {
                await update({ variables: { id, input: { name, description } } });
                return 'Collection saved';
              }, 'Failed to save the collection')
            }
          />
          <Paper sx={{ p: 2 }}>
            <Typography variant="h6" component="h2" gutterBottom>
              Files
            </Typography>
            <AddFile
              exclude={new Set(files.map((file) => file.id))}
              onAdd={(fileId) =>
                void banners.attempt(async () => {
                  await add({ variables: { id, fileId } });
                  return 'File added';
                }, 'Failed to add the file')
              }
            />
            {files.length === 0 ? (
              <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                No files in this collection yet
              </Typography>
            ) : (
              <List component="ol" aria-label="Files in order">
                {files.map((file, index) => (
                  <ListItem
                    key={file.id}
                    divider
                    secondaryAction={
                      <Stack direction="row">
                        <IconButton
                          aria-label={`Move ${file.title} up`}
                          disabled={index === 0 || reordering.loading}
                          onClick={() => move(index, index - 1)}
                        >
                          <ArrowUpwardIcon />
                        </IconButton>
                        <IconButton
                          aria-label={`Move ${file.title} down`}
                          disabled={index === files.length - 1 || reordering.loading}
                          onClick={() => move(index, index + 1)}
                        >
                          <ArrowDownwardIcon />
                        </IconButton>
                        <IconButton
                          aria-label={`Remove ${file.title}`}
                          onClick={() =>
                            void banners.attempt(async () => {
                              await remove({ variables: { id, fileId: file.id } });
                              return `Removed "${file.title}"`;
                            }, 'Failed to remove the file')
                          }
                        >
                          <DeleteIcon />
                        </IconButton>
                      </Stack>
                    }
                    sx={{ pr: 18 }}
                  >
                    <ListItemText
                      primary={`${index + 1}. ${file.title}`}
                      secondary={file.duration > 0 ? formatDuration(file.duration) : null}
                      slotProps={{ primary: { noWrap: true } }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Paper>
        </>
      )}
    </Container>
  );
}
