import { useMutation, useQuery } from '@apollo/client/react';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Button,
  Chip,
  Container,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { AdminApiKeysDocument, RevokeApiKeyDocument, type ApiKeyRowFragment } from '../../../gql/graphql';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorText, formatDate } from '../admin-format';
import { AdminPageHeader } from '../components/AdminPageHeader';
import { CreateApiKeyForm, scopeLabels } from '../components/CreateApiKeyForm';
import { useTimedMessage } from '../hooks/useTimedMessage';

const statusColor = { active: 'success', expired: 'default', revoked: 'error' } as const;

/** Administrators: API keys for integrators: list, create (the secret shown once), revoke. */
export function ApiKeysPage() {
  const { data, loading, error } = useQuery(AdminApiKeysDocument, { fetchPolicy: 'cache-and-network' });
  const [revokeApiKey, { loading: revoking }] = useMutation(RevokeApiKeyDocument);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [toRevoke, setToRevoke] = useState<ApiKeyRowFragment | null>(null);
  const [actionError, setActionError] = useTimedMessage(5000);

  const onRevoke = async () => {
    if (!toRevoke) return;
    try {
      await revokeApiKey({ variables: { id: toRevoke.id } });
    } catch (err) {
      setActionError(errorText(err, 'Failed to revoke API key'));
    }
    setToRevoke(null);
  };

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <AdminPageHeader title="API Keys" back="/admin" />
      {secret && (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={
            <Button
              color="inherit"
              startIcon={<ContentCopyIcon />}
              onClick={() => void navigator.clipboard.writeText(secret).then(() => setCopied(true))}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          }
          onClose={() => setSecret(null)}
        >
          Copy this key now: it is not shown again.
          <Typography component="code" data-testid="api-key-secret" sx={{ display: 'block', wordBreak: 'break-all', mt: 1 }}>
            {secret}
          </Typography>
        </Alert>
      )}
      {(actionError || error) && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {actionError ?? errorText(error, 'Failed to load API keys')}
        </Alert>
      )}
      <CreateApiKeyForm
        onCreated={(created) => {
          setCopied(false);
          setSecret(created);
        }}
      />
      <Paper>
        {loading && <LinearProgress />}
        <TableContainer>
          <Table>
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Key</TableCell>
                <TableCell>User</TableCell>
                <TableCell>Scopes</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell>Last used</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data?.apiKeys.map((key) => (
                <TableRow key={key.id} hover>
                  <TableCell>{key.name}</TableCell>
                  <TableCell>
                    <code>{key.prefix}…</code>
                  </TableCell>
                  <TableCell>{key.userEmail}</TableCell>
                  <TableCell>{key.scopes.map((s) => scopeLabels[s].label).join(', ')}</TableCell>
                  <TableCell>
                    <Chip size="small" label={key.status} color={statusColor[key.status]} />
                  </TableCell>
                  <TableCell>{key.expiresAt ? formatDate(key.expiresAt) : 'Never'}</TableCell>
                  <TableCell>{key.lastUsedAt ? `${formatDate(key.lastUsedAt)} from ${key.lastUsedIp ?? '?'}` : 'Never'}</TableCell>
                  <TableCell align="right">
                    <Button
                      color="error"
                      disabled={key.status === 'revoked'}
                      aria-label={`Revoke ${key.name}`}
                      onClick={() => setToRevoke(key)}
                    >
                      Revoke
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
              {data && data.apiKeys.length === 0 && (
                <TableRow>
                  <TableCell colSpan={8} align="center">
                    No API keys yet
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <ConfirmDialog
        open={toRevoke !== null}
        title="Revoke API key"
        message={`Revoke "${toRevoke?.name ?? ''}"? It stops working at its next request.`}
        confirmLabel="Revoke"
        danger
        busy={revoking}
        onConfirm={() => void onRevoke()}
        onCancel={() => setToRevoke(null)}
      />
    </Container>
  );
}
