import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Box, Button, CircularProgress, Container, FormControlLabel, Paper, Stack, Switch } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AdminUpdateUserDocument, AdminUserDocument, type AdminUserRowFragment } from '../../../gql/graphql';
import { errorText } from '../admin-format';
import { AdminPageHeader } from '../components/AdminPageHeader';
import { UserFields, type UserFieldValues } from '../components/UserFields';
import { UserSessionsTable } from '../components/UserSessionsTable';
import { useRedirectAfter } from '../hooks/useRedirectAfter';
import { Banner } from '../../../components/Banner';

function EditUserForm({ user }: { user: AdminUserRowFragment }) {
  const navigate = useNavigate();
  const redirect = useRedirectAfter();
  const [values, setValues] = useState<UserFieldValues>({ name: user.name, email: user.email, role: user.role });
  const [isLocked, setIsLocked] = useState(user.isLocked);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [updateUser, { loading }] = useMutation(AdminUpdateUserDocument);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await updateUser({
        variables: {
          id: user.id,
          input: { name: values.name.trim(), email: values.email.trim(), role: values.role, isLocked },
        },
      });
      setSuccess('User updated successfully!');
      redirect('/admin/users', 2000);
    } catch (err) {
      setError(errorText(err, 'Failed to update user'));
    }
  };

  return (
    <Paper sx={{ p: 3 }}>
      <Banner severity="error">{error}</Banner>
      <Banner severity="success">{success}</Banner>
      <Box component="form" onSubmit={(e) => void onSubmit(e)}>
        <UserFields values={values} onChange={setValues} />
        <FormControlLabel
          control={<Switch checked={isLocked} onChange={(e) => setIsLocked(e.target.checked)} />}
          label="Lock User Account"
        />
        <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" disabled={loading || success !== null}>
            Save Changes
          </Button>
          <Button onClick={() => void navigate('/admin/users')}>Cancel</Button>
        </Stack>
      </Box>
    </Paper>
  );
}

export function EditUserPage() {
  const { id = '' } = useParams();
  const { data, loading, error } = useQuery(AdminUserDocument, { variables: { id }, fetchPolicy: 'network-only' });
  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <AdminPageHeader title="Edit User" back="/admin/users" />
      {loading && <CircularProgress />}
      {error && <Alert severity="error">{errorText(error, 'Failed to load user data')}</Alert>}
      {data && (
        <>
          <EditUserForm key={data.adminUser.id} user={data.adminUser} />
          <UserSessionsTable userId={data.adminUser.id} />
        </>
      )}
    </Container>
  );
}
