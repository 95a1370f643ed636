import { useMutation, useQuery } from '@apollo/client/react';
import {
  Alert,
  Button,
  Chip,
  CircularProgress,
  Container,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useParams } from 'react-router';
import {
  AdminFileAccessDocument,
  AdminRevokeAccessDocument,
  type AdminFileAccessQuery,
  type GrantStatus,
} from '../../../gql/graphql';
import { errorText, formatDateTime } from '../admin-format';
import { AdminPageHeader } from '../components/AdminPageHeader';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useClockPast } from '../../../components/useClockPast';
import { GrantAccessForm } from '../components/GrantAccessForm';
import { useTimedMessage } from '../hooks/useTimedMessage';

type Grant = AdminFileAccessQuery['fileAccessList']['grants'][number];

const STATUS_COLOR: Record<GrantStatus, 'success' | 'warning' | 'error'> = {
  Active: 'success',
  Expired: 'warning',
  Revoked: 'error',
};

/** The spec's rule, applied on the client too so an expiry passing while the page is open shows. */
function statusOf(grant: Grant, now: number): GrantStatus {
  if (grant.expiresAt && new Date(grant.expiresAt).getTime() <= now) return 'Expired';
  return grant.canView ? 'Active' : 'Revoked';
}

export function FileAccessPage() {
  const { fileId = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(AdminFileAccessDocument, {
    variables: { fileId },
    fetchPolicy: 'network-only',
  });
  const [revokeAccess, { loading: revoking }] = useMutation(AdminRevokeAccessDocument);
  const [success, setSuccess] = useTimedMessage(3000);
  const [actionError, setActionError] = useState<string | null>(null);
  const [toRevoke, setToRevoke] = useState<Grant | null>(null);
  const list = data?.fileAccessList;
  const now = useClockPast(list?.grants.map((g) => g.expiresAt) ?? []);
  const holders = new Set(list?.grants.filter((g) => statusOf(g, now) === 'Active').map((g) => g.user.id));
  const candidates = list?.allUsers.filter((u) => !holders.has(u.id)) ?? [];

  const onRevoke = async () => {
    if (!toRevoke) return;
    try {
      await revokeAccess({ variables: { id: toRevoke.id } });
      setSuccess('Access revoked successfully');
      setActionError(null);
      await refetch();
    } catch (err) {
      setActionError(errorText(err, 'Failed to revoke access'));
    } finally {
      setToRevoke(null);
    }
  };

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <AdminPageHeader title="Manage Access" back="/admin/files" />
      {loading && <CircularProgress />}
      {error && <Alert severity="error">{errorText(error, 'Failed to load file access data')}</Alert>}
      {success && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {success}
        </Alert>
      )}
      {actionError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {actionError}
        </Alert>
      )}
      {list && (
        <>
          <Typography variant="h6" component="p" sx={{ mb: 2 }}>
            {list.file.title}{' '}
            <Typography component="span" color="text.secondary">
              ({list.file.filename})
            </Typography>
          </Typography>
          <GrantAccessForm
            fileId={fileId}
            candidates={candidates}
            onGranted={(message) => {
              setSuccess(message);
              setActionError(null);
              void refetch();
            }}
          />
          <Paper>
            <Table aria-label="Current access">
              <TableHead>
                <TableRow>
                  <TableCell>User</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Access Granted</TableCell>
                  <TableCell>Expires</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.grants.map((grant) => {
                  const status = statusOf(grant, now);
                  return (
                    <TableRow key={grant.id}>
                      <TableCell>
                        {grant.user.name}
                        <Typography variant="body2" color="text.secondary">
                          {grant.user.email}
                        </Typography>
                      </TableCell>
                      <TableCell>
                        <Chip size="small" label={status} color={STATUS_COLOR[status]} />
                      </TableCell>
                      <TableCell>{formatDateTime(grant.grantedAt)}</TableCell>
                      <TableCell>{grant.expiresAt ? formatDateTime(grant.expiresAt) : 'Never'}</TableCell>
                      <TableCell align="right">
                        {status === 'Active' && (
                          <Button
                            color="error"
                            aria-label={`Revoke ${grant.user.email}`}
                            onClick={() => setToRevoke(grant)}
                          >
                            Revoke
                          </Button>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
                {list.grants.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={5} align="center">
                      No users have been granted access to this file.
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </Paper>
        </>
      )}
      <ConfirmDialog
        open={toRevoke !== null}
        title="Revoke Access"
        confirmLabel="Revoke"
        busy={revoking}
        onConfirm={() => void onRevoke()}
        onCancel={() => setToRevoke(null)}
        danger
        message={`Revoke ${toRevoke?.user.name ?? ''} (${toRevoke?.user.email ?? ''})'s access to this file? Their open players stop at once.`}
      />
    </Container>
  );
}
