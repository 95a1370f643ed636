import { useMutation } from '@apollo/client/react';
import EditIcon from '@mui/icons-material/Edit';
import { Alert, Avatar, Box, Button, Card, CardContent, Chip, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { UpdateMyDetailsDocument } from '../../../gql/graphql';
import { EMAIL_PATTERN } from '../../auth/auth-messages';
import { useAuth } from '../../auth/auth-context';

/** Name and email with inline edit, the avatar initial, the Administrator chip and Member Since. */
export function PersonalInfoCard() {
  const { user, isAdmin, setUser } = useAuth();
  const [update, { loading }] = useMutation(UpdateMyDetailsDocument);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  if (!user) return null;

  const startEdit = () => {
    setName(user.name);
    setEmail(user.email);
    setError(null);
    setSuccess(null);
    setEditing(true);
  };

  const save = async () => {
    setError(null);
    if (!name.trim() || !email.trim()) return setError('Name and email are required');
    if (!EMAIL_PATTERN.test(email.trim())) return setError('Please enter a valid email address');
    try {
      const { data } = await update({ variables: { input: { name: name.trim(), email: email.trim() } } });
      if (data) setUser(data.updateMyDetails);
      setEditing(false);
      setSuccess('Profile updated successfully');
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : 'Failed to update profile');
    }
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
          <Typography variant="h6" component="h2">
            Personal Information
          </Typography>
          {!editing && (
            <Button startIcon={<EditIcon />} onClick={startEdit}>
              Edit
            </Button>
          )}
        </Stack>
        {success && (
          <Alert severity="success" sx={{ mb: 2 }} onClose={() => setSuccess(null)}>
            {success}
          </Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        <Stack direction="row" spacing={3} sx={{ alignItems: 'flex-start' }}>
          <Avatar sx={{ width: 64, height: 64, fontSize: 28, bgcolor: 'primary.main' }} aria-hidden>
            {user.name.trim().charAt(0).toUpperCase() || '?'}
          </Avatar>
          {editing ? (
            <Stack spacing={2} sx={{ flexGrow: 1 }}>
              <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required fullWidth />
              <TextField
                label="Email"
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                required
                fullWidth
              />
              <Stack direction="row" spacing={1}>
                <Button variant="contained" onClick={() => void save()} disabled={loading}>
                  Save
                </Button>
                <Button onClick={() => setEditing(false)} disabled={loading}>
                  Cancel
                </Button>
              </Stack>
            </Stack>
          ) : (
            <Box sx={{ flexGrow: 1 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography variant="h5" component="p">
                  {user.name}
                </Typography>
                {isAdmin && <Chip size="small" color="secondary" label="Administrator" />}
              </Stack>
              <Typography color="text.secondary">{user.email}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                Member Since: {new Date(user.createdAt).toLocaleDateString()}
              </Typography>
            </Box>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
