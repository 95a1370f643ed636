import { useQuery } from '@apollo/client/react';
import { Alert, CircularProgress, Container } from '@mui/material';
import { CombinedGraphQLErrors } from '@apollo/client';
import { useParams } from 'react-router';
import { AdminFileDocument } from '../../../gql/graphql';
import { errorText } from '../admin-format';
import { AdminPageHeader } from '../components/AdminPageHeader';
import { ChapterManager } from '../components/ChapterManager';
import { EditFileForm } from '../components/EditFileForm';

// The id in the address is the query's only input: one the server cannot read names no file either.
const isNotFound = (error: unknown) =>
  CombinedGraphQLErrors.is(error) &&
  error.errors.some((e) => e.extensions?.code === 'NOT_FOUND' || e.extensions?.code === 'BAD_USER_INPUT');

export function EditFilePage() {
  const { id = '' } = useParams();
  const { data, loading, error } = useQuery(AdminFileDocument, { variables: { id }, fetchPolicy: 'network-only' });

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <AdminPageHeader title="Edit File" back="/admin/files" />
      {loading && <CircularProgress />}
      {error && (
        <Alert severity="error">
          {isNotFound(error) ? 'File not found' : errorText(error, 'Failed to load file data')}
        </Alert>
      )}
      {data && (
        <>
          <EditFileForm key={data.adminFile.id} file={data.adminFile} />
          <ChapterManager fileId={data.adminFile.id} />
        </>
      )}
    </Container>
  );
}
