import { useMutation } from '@apollo/client/react';
import {
  Alert,
  Box,
  Button,
  FormControl,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { AdminGrantAccessDocument } from '../../../gql/graphql';
import { errorText } from '../admin-format';

interface Candidate {
  id: string;
  name: string;
  email: string;
}

/** Grants one user access to the file, optionally until a date and time. */
export function GrantAccessForm({
  fileId,
  candidates,
  onGranted,
}: {
  fileId: string;
  candidates: Candidate[];
  onGranted: (message: string) => void;
}) {
  const [userId, setUserId] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [grantAccess, { loading }] = useMutation(AdminGrantAccessDocument);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!userId) {
      setError('Please select a user');
      return;
    }
    setError(null);
    try {
      // datetime-local is the admin's local time; the server stores an instant.
      const expiry = expiresAt ? new Date(expiresAt).toISOString() : null;
      await grantAccess({ variables: { input: { fileId, userId, expiresAt: expiry } } });
      setUserId('');
      setExpiresAt('');
      onGranted('Access granted successfully');
    } catch (err) {
      setError(errorText(err, 'Failed to grant access'));
    }
  };

  return (
    <Paper sx={{ p: 3, mb: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        Grant Access
      </Typography>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {candidates.length === 0 ? (
        <Alert severity="info">All users already have access to this file.</Alert>
      ) : (
        <Box component="form" noValidate onSubmit={(e) => void onSubmit(e)}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
            <FormControl sx={{ minWidth: 280 }}>
              <InputLabel id="grant-user-label">Select User</InputLabel>
              <Select
                labelId="grant-user-label"
                label="Select User"
                value={userId}
                onChange={(e) => {
                  setError(null);
                  setUserId(e.target.value);
                }}
              >
                {candidates.map((user) => (
                  <MenuItem key={user.id} value={user.id}>
                    {user.name} ({user.email})
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <TextField
              label="Expires At (optional)"
              type="datetime-local"
              value={expiresAt}
              onChange={(e) => {
                setError(null);
                setExpiresAt(e.target.value);
              }}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Button type="submit" variant="contained" disabled={loading}>
              Grant Access
            </Button>
          </Stack>
        </Box>
      )}
    </Paper>
  );
}
