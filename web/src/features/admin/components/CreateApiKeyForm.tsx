import { useMutation, useQuery } from '@apollo/client/react';
import {
  Alert,
  Autocomplete,
  Button,
  Checkbox,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { ApiKeyUserOptionsDocument, CreateApiKeyDocument, type ApiKeyScope } from '../../../gql/graphql';
import { useDebouncedValue } from '../../library/hooks/useDebouncedValue';
import { errorText } from '../admin-format';
import { useApiKeyScopes } from '../hooks/useApiKeyScopes';

interface UserOption {
  id: string;
  email: string;
  isAdmin: boolean;
}

/** The create form: name, the user it acts for, scopes and an optional expiry; reports the secret once. */
export function CreateApiKeyForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const [name, setName] = useState('');
  const [user, setUser] = useState<UserOption | null>(null);
  const [userSearch, setUserSearch] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['LIBRARY_READ']);
  const [expiresAt, setExpiresAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const search = useDebouncedValue(userSearch.trim(), 300);
  const { data: users } = useQuery(ApiKeyUserOptionsDocument, { variables: { search: search || null } });
  const [createApiKey, { loading }] = useMutation(CreateApiKeyDocument, { refetchQueries: ['AdminApiKeys'] });
  const { scopes: scopeInfo } = useApiKeyScopes();
  const adminOnly = new Set(scopeInfo.filter((s) => s.adminOnly).map((s) => s.scope));

  const toggle = (scope: ApiKeyScope) =>
    setScopes((current) => (current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope]));

  const onSubmit = async () => {
    setError(null);
    try {
      const result = await createApiKey({
        variables: {
          input: {
            name: name.trim(),
            userId: user?.id ?? '',
            scopes,
            expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
          },
        },
      });
      if (result.data) onCreated(result.data.createApiKey.secret);
      setName('');
    } catch (err) {
      setError(errorText(err, 'Failed to create API key'));
    }
  };

  return (
    <Paper sx={{ p: 2, mb: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        Create API Key
      </Typography>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      <Stack spacing={2}>
        <TextField label="Key name" value={name} onChange={(e) => setName(e.target.value)} required />
        <Autocomplete
          options={users?.adminUsers.items ?? []}
          getOptionLabel={(option) => option.email}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          value={user}
          onChange={(_e, value) => {
            setUser(value);
            if (value && !value.isAdmin) setScopes((current) => current.filter((s) => !adminOnly.has(s)));
          }}
          inputValue={userSearch}
          onInputChange={(_e, value) => setUserSearch(value)}
          renderInput={(params) => <TextField {...params} label="Acts for user" required />}
        />
        <FormGroup>
          <FormLabel component="legend">Scopes</FormLabel>
          {scopeInfo.map((info) => (
            <FormControlLabel
              key={info.scope}
              label={info.name}
              control={
                <Checkbox
                  checked={scopes.includes(info.scope)}
                  disabled={info.adminOnly && user !== null && !user.isAdmin}
                  onChange={() => toggle(info.scope)}
                />
              }
            />
          ))}
        </FormGroup>
        <TextField
          label="Expires (optional)"
          type="datetime-local"
          value={expiresAt}
          onChange={(e) => setExpiresAt(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button
          variant="contained"
          disabled={loading || !name.trim() || !user || scopes.length === 0}
          onClick={() => void onSubmit()}
        >
          Create Key
        </Button>
      </Stack>
    </Paper>
  );
}
