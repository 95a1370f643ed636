import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Chip, CircularProgress, Typography } from '@mui/material';
import { useParams } from 'react-router';
import { useClockPast } from '../../../components/useClockPast';
import {
  AdminFileAccessDocument,
  AdminRevokeAccessDocument,
  type AdminFileAccessQuery,
  type GrantStatus,
} from '../../../gql/graphql';
import { errorText, formatDateTime } from '../admin-format';
import { AdminListPage } from '../components/AdminListPage';
import { AdminTable, type Column } from '../components/AdminTable';
import { GrantAccessForm } from '../components/GrantAccessForm';
import { useBanners } from '../hooks/useBanners';
import { useConfirmedAction } from '../hooks/useConfirmedAction';

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
  const [revokeAccess] = useMutation(AdminRevokeAccessDocument);
  const banners = useBanners({ successMs: 3000 });
  const list = data?.fileAccessList;
  const now = useClockPast(list?.grants.map((g) => g.expiresAt) ?? []);
  const activeGrants = (list?.grants ?? [])
    .filter((g) => statusOf(g, now) === 'Active')
    .map((g) => g.id)
    .join(' ');

  const revocation = useConfirmedAction({
    title: 'Revoke Access',
    confirmLabel: 'Revoke',
    message: (grant: Grant) =>
      `Revoke ${grant.user.name} (${grant.user.email})'s access to this file? Their open players stop at once.`,
    run: (grant) =>
      banners.attempt(async () => {
        await revokeAccess({ variables: { id: grant.id } });
        await refetch();
        return 'Access revoked successfully';
      }, 'Failed to revoke access'),
  });

  const columns: Column<Grant>[] = [
    {
      label: 'User',
      cell: (grant) => (
        <div>
          {grant.user.name}
          <Typography variant="body2" color="text.secondary">
            {grant.user.email}
          </Typography>
        </div>
      ),
    },
    {
      label: 'Status',
      cell: (grant) => {
        const status = statusOf(grant, now);
        return <Chip size="small" label={status} color={STATUS_COLOR[status]} />;
      },
    },
    { label: 'Access Granted', cell: (grant) => formatDateTime(grant.grantedAt) },
    { label: 'Expires', cell: (grant) => (grant.expiresAt ? formatDateTime(grant.expiresAt) : 'Never') },
    {
      label: 'Actions',
      align: 'right',
      cell: (grant) =>
        statusOf(grant, now) === 'Active' && (
          <Button color="error" aria-label={`Revoke ${grant.user.email}`} onClick={() => revocation.ask(grant)}>
            Revoke
          </Button>
        ),
    },
  ];

  return (
    <AdminListPage
      title="Manage Access"
      back="/admin/files"
      banners={banners}
      loadError={error && errorText(error, 'Failed to load file access data')}
    >
      {revocation.dialog}
      {loading && <CircularProgress />}
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
            activeGrants={activeGrants}
            onGranted={(message) => {
              banners.succeed(message);
              void refetch();
            }}
          />
          <AdminTable
            label="Current access"
            columns={columns}
            rows={list.grants}
            empty="No users have been granted access to this file."
          />
        </>
      )}
    </AdminListPage>
  );
}
