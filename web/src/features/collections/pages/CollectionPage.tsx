import { useQuery } from '@apollo/client/react';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, CircularProgress, Container, Grid, Typography } from '@mui/material';
import { useNavigate, useParams } from 'react-router';
import { CollectionPageDocument } from '../../../gql/graphql';
import { AudioFileCard } from '../../library/components/AudioFileCard';

const filesLabel = (count: number) => (count === 1 ? '1 file' : `${count} files`);

/** A collection: its name and description, and its files the user may see, in order. */
export function CollectionPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data, loading, error } = useQuery(CollectionPageDocument, {
    variables: { id },
    fetchPolicy: 'cache-and-network',
  });
  const collection = data?.collection;
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate('/')} sx={{ mb: 2 }}>
        Back to Library
      </Button>
      {collection ? (
        <>
          <Typography variant="h4" component="h1">
            {collection.name}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {collection.description || 'No description'}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 3 }}>
            {filesLabel(collection.fileCount)}
          </Typography>
          <Grid container spacing={3} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {collection.files.map((file) => (
              <Grid key={file.id} size={{ xs: 12, sm: 6, md: 4 }} component="li">
                <AudioFileCard file={file} />
              </Grid>
            ))}
          </Grid>
        </>
      ) : loading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
          <CircularProgress aria-label="Loading the collection" />
        </Box>
      ) : (
        <Alert severity="error">
          {error?.message === 'Collection not found' || !error
            ? 'Collection not found'
            : 'Failed to fetch the collection'}
        </Alert>
      )}
    </Container>
  );
}
