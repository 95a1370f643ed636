import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Autocomplete, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { AdminGrantAccessDocument, AdminGrantCandidatesDocument } from '../../../gql/graphql';
import { useDebouncedValue } from '../../library/hooks/useDebouncedValue';
import { errorText } from '../admin-format';

interface Candidate {
  id: string;
  name: string;
  email: string;
}

const optionLabel = (user: Candidate) => `${user.name} (${user.email})`;

/**
 * Grants one user access to the file, optionally until a date and time. The users offered are
 * those without access, searched on the server as the administrator types (20 at a time).
 * `activeGrants` changes whenever a grant starts, ends or expires on the page: who is offered is
 * asked again then.
 */
export function GrantAccessForm({
  fileId,
  activeGrants,
  onGranted,
}: {
  fileId: string;
  activeGrants: string;
  onGranted: (message: string) => void;
}) {
  const [user, setUser] = useState<Candidate | null>(null);
  const [typed, setTyped] = useState('');
  const [searchText, setSearchText] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const search = useDebouncedValue(searchText.trim(), 300);
  const candidates = useQuery(AdminGrantCandidatesDocument, {
    variables: { fileId, search: search || null },
    fetchPolicy: 'network-only',
  });
  const [grantAccess, { loading }] = useMutation(AdminGrantAccessDocument);
  const { refetch } = candidates;
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    void refetch();
  }, [activeGrants, refetch]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user) {
      setError('Please select a user');
      return;
    }
    setError(null);
    try {
      // datetime-local is the admin's local time; the server stores an instant.
      const expiry = expiresAt ? new Date(expiresAt).toISOString() : null;
      await grantAccess({ variables: { input: { fileId, userId: user.id, expiresAt: expiry } } });
      setUser(null);
      setTyped('');
      setSearchText('');
      setExpiresAt('');
      onGranted('Access granted successfully');
    } catch (err) {
      setError(errorText(err, 'Failed to grant access'));
    }
  };

  const offered = candidates.data?.grantCandidates;
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
      {offered && !search && offered.total === 0 ? (
        <Alert severity="info">All users already have access to this file.</Alert>
      ) : (
        <Box component="form" noValidate onSubmit={(e) => void onSubmit(e)}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
            <Autocomplete
              sx={{ minWidth: 280 }}
              options={offered?.items ?? []}
              loading={candidates.loading}
              // The server searched already: show what it found.
              filterOptions={(options) => options}
              getOptionLabel={optionLabel}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              value={user}
              onChange={(_e, value) => {
                setError(null);
                setUser(value);
              }}
              inputValue={typed}
              onInputChange={(_e, value, reason) => {
                setTyped(value);
                // Choosing a user writes its label in the box: that is no search.
                if (reason !== 'reset') setSearchText(value);
              }}
              renderInput={(params) => <TextField {...params} label="Select User" />}
            />
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
