import { useMutation } from '@apollo/client/react';
import { Box, Button, Container, Paper, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { AdminCreateUserDocument } from '../../../gql/graphql';
import { errorText } from '../admin-format';
import { AdminPageHeader } from '../components/AdminPageHeader';
import { UserFields, type UserFieldValues } from '../components/UserFields';
import { useRedirectAfter } from '../hooks/useRedirectAfter';
import { Banner } from '../../../components/Banner';

export function CreateUserPage() {
  const navigate = useNavigate();
  const redirect = useRedirectAfter();
  const [values, setValues] = useState<UserFieldValues>({ name: '', email: '', role: 'user' });
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [createUser, { loading }] = useMutation(AdminCreateUserDocument);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await createUser({
        variables: { input: { ...values, name: values.name.trim(), email: values.email.trim(), password } },
      });
      setSuccess('User created successfully!');
      redirect('/admin/users', 2000);
    } catch (err) {
      setError(errorText(err, 'Failed to create user'));
    }
  };

  return (
    <Container maxWidth="sm" sx={{ py: 4 }}>
      <AdminPageHeader title="Create User" back="/admin/users" />
      <Paper sx={{ p: 3 }}>
        <Banner severity="error">{error}</Banner>
        <Banner severity="success">{success}</Banner>
        <Box component="form" onSubmit={(e) => void onSubmit(e)}>
          <UserFields values={values} onChange={setValues} />
          <TextField
            label="Password"
            type="password"
            required
            fullWidth
            margin="normal"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
            <Button type="submit" variant="contained" disabled={loading || success !== null}>
              Create User
            </Button>
            <Button onClick={() => void navigate('/admin/users')}>Cancel</Button>
          </Stack>
        </Box>
      </Paper>
    </Container>
  );
}
