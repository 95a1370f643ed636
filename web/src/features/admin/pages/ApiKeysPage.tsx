import { useMutation, useQuery } from '@apollo/client/react';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, Button, Chip, Container, Typography } from '@mui/material';
import { useState } from 'react';
import {
  AdminApiKeysDocument,
  RevokeApiKeyDocument,
  type ApiKeyRowFragment,
  type ApiKeyScope,
} from '../../../gql/graphql';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorText, formatDate } from '../admin-format';
import { AdminPageHeader } from '../components/AdminPageHeader';
import { AdminTable, type Column } from '../components/AdminTable';
import { CreateApiKeyForm } from '../components/CreateApiKeyForm';
import { useApiKeyScopes } from '../hooks/useApiKeyScopes';
import { useTimedMessage } from '../hooks/useTimedMessage';

const statusColor = { active: 'success', expired: 'default', revoked: 'error' } as const;

const columns = (
  onRevoke: (key: ApiKeyRowFragment) => void,
  nameOf: (scope: ApiKeyScope) => string,
): Column<ApiKeyRowFragment>[] => [
  { label: 'Name', cell: (key) => key.name },
  { label: 'Key', cell: (key) => <code>{key.prefix}…</code> },
  { label: 'User', cell: (key) => key.userEmail },
  { label: 'Scopes', cell: (key) => key.scopes.map(nameOf).join(', ') },
  { label: 'Status', cell: (key) => <Chip size="small" label={key.status} color={statusColor[key.status]} /> },
  { label: 'Expires', cell: (key) => (key.expiresAt ? formatDate(key.expiresAt) : 'Never') },
  {
    label: 'Last used',
    cell: (key) => (key.lastUsedAt ? `${formatDate(key.lastUsedAt)} from ${key.lastUsedIp ?? '?'}` : 'Never'),
  },
  {
    label: 'Actions',
    align: 'right',
    cell: (key) => (
      <Button
        color="error"
        disabled={key.status === 'revoked'}
        aria-label={`Revoke ${key.name}`}
        onClick={() => onRevoke(key)}
      >
        Revoke
      </Button>
    ),
  },
];

/** Administrators: API keys for integrators: list, create (the secret shown once), revoke. */
export function ApiKeysPage() {
  const { data, loading, error } = useQuery(AdminApiKeysDocument, { fetchPolicy: 'cache-and-network' });
  const [revokeApiKey, { loading: revoking }] = useMutation(RevokeApiKeyDocument);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [toRevoke, setToRevoke] = useState<ApiKeyRowFragment | null>(null);
  const [actionError, setActionError] = useTimedMessage(5000);
  const { nameOf } = useApiKeyScopes();

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
              onClick={() =>
                void navigator.clipboard.writeText(secret).then(
                  () => setCopied(true),
                  // A refused clipboard (permission, insecure origin) leaves the secret to select by hand.
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          }
          onClose={() => setSecret(null)}
        >
          Copy this key now: it is not shown again.
          <Typography
            component="code"
            data-testid="api-key-secret"
            sx={{ display: 'block', wordBreak: 'break-all', mt: 1 }}
          >
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
      <AdminTable
        label="API keys"
        columns={columns(setToRevoke, nameOf)}
        rows={data?.apiKeys}
        empty="No API keys yet"
        loading={loading}
      />
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
