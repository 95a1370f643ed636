import { useMutation, useQuery } from '@apollo/client/react';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Box, Button, Chip, IconButton, Tooltip } from '@mui/material';
import { useNavigate } from 'react-router';
import {
  AdminDeleteUserDocument,
  AdminUnlockUserDocument,
  AdminUsersDocument,
  type AdminUserRowFragment,
} from '../../../gql/graphql';
import { errorText, formatDate, formatDateTime } from '../admin-format';
import { SearchField } from '../../../components/SearchField';
import { AdminListPage } from '../components/AdminListPage';
import { AdminTable, type Column } from '../components/AdminTable';
import { useBanners } from '../hooks/useBanners';
import { useConfirmedAction } from '../hooks/useConfirmedAction';
import { useListControls } from '../hooks/useListControls';

export function UserListPage() {
  const navigate = useNavigate();
  const list = useListControls();
  const banners = useBanners({ successMs: 5000, errorMs: 5000 });
  const { data, previousData, loading, error, refetch } = useQuery(AdminUsersDocument, {
    variables: list.window,
    fetchPolicy: 'cache-and-network',
  });
  const [unlockUser] = useMutation(AdminUnlockUserDocument);
  const [deleteUser] = useMutation(AdminDeleteUserDocument);
  const result = (data ?? previousData)?.adminUsers;

  const onUnlock = (user: AdminUserRowFragment) =>
    banners.attempt(async () => {
      await unlockUser({ variables: { userId: user.id } });
      return `User ${user.email} has been unlocked successfully`;
    }, 'Failed to unlock user');

  const deletion = useConfirmedAction({
    title: 'Delete User',
    confirmLabel: 'Delete',
    message: (user: AdminUserRowFragment) =>
      `Are you sure you want to delete the user ${user.email}? This cannot be undone.`,
    run: (user) =>
      banners.attempt(async () => {
        await deleteUser({ variables: { id: user.id } });
        await refetch();
        return `User ${user.email} has been deleted successfully`;
      }, 'Failed to delete user'),
  });

  const columns: Column<AdminUserRowFragment>[] = [
    { label: 'Name', cell: (user) => user.name },
    { label: 'Email', cell: (user) => user.email },
    {
      label: 'Role',
      cell: (user) => <Chip size="small" label={user.role} color={user.isAdmin ? 'secondary' : 'default'} />,
    },
    {
      label: 'Status',
      cell: (user) => (
        <Box sx={{ display: 'inline-flex', flexWrap: 'wrap', gap: 0.5 }}>
          <Chip size="small" label={user.isLocked ? 'Locked' : 'Active'} color={user.isLocked ? 'error' : 'success'} />
          {user.ripSuspectedAt && (
            <Chip
              size="small"
              color="warning"
              icon={<WarningAmberIcon />}
              label="Rip suspected"
              title={`Suspected of ripping on ${formatDateTime(user.ripSuspectedAt)}`}
            />
          )}
        </Box>
      ),
    },
    { label: 'Sessions', cell: (user) => user.sessionCount },
    { label: 'Joined', cell: (user) => formatDate(user.createdAt) },
    {
      label: 'Actions',
      align: 'right',
      cell: (user) => (
        <Box>
          <Tooltip title="Edit">
            <IconButton aria-label={`Edit ${user.email}`} onClick={() => void navigate(`/admin/users/edit/${user.id}`)}>
              <EditIcon />
            </IconButton>
          </Tooltip>
          {user.isLocked && (
            <Tooltip title="Unlock">
              <IconButton aria-label={`Unlock ${user.email}`} color="warning" onClick={() => void onUnlock(user)}>
                <LockOpenIcon />
              </IconButton>
            </Tooltip>
          )}
          {/* The span keeps the tooltip working on a disabled button. */}
          <Tooltip title={user.isAdmin ? 'Administrators cannot be deleted' : 'Delete'}>
            <span>
              <IconButton
                aria-label={`Delete ${user.email}`}
                color="error"
                disabled={user.isAdmin || user.role === 'admin'}
                onClick={() => deletion.ask(user)}
              >
                <DeleteIcon />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      ),
    },
  ];

  return (
    <AdminListPage
      title="User Management"
      back="/admin"
      banners={banners}
      loadError={error && errorText(error, 'Failed to load users')}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => void navigate('/admin/users/new')}>
          Add User
        </Button>
      }
    >
      {deletion.dialog}
      <Box sx={{ mb: 2 }}>
        <SearchField label="Search users" value={list.search} onChange={list.setSearch} />
      </Box>
      <AdminTable
        label="Users"
        columns={columns}
        page={result}
        empty="No users found"
        loading={loading}
        paging={list.paging}
      />
    </AdminListPage>
  );
}
