import { useMutation, useQuery } from '@apollo/client/react';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Button,
  Chip,
  Container,
  IconButton,
  InputAdornment,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Tooltip,
} from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  AdminDeleteUserDocument,
  AdminUnlockUserDocument,
  AdminUsersDocument,
  type AdminUserRowFragment,
} from '../../../gql/graphql';
import { useDebouncedValue } from '../../library/hooks/useDebouncedValue';
import { errorText, formatDate } from '../admin-format';
import { AdminPageHeader } from '../components/AdminPageHeader';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useTimedMessage } from '../hooks/useTimedMessage';

const PAGE_SIZES = [5, 10, 25];

export function UserListPage() {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const serverSearch = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(10);
  const [success, setSuccess] = useTimedMessage(5000);
  const [actionError, setActionError] = useTimedMessage(5000);
  const [toDelete, setToDelete] = useState<AdminUserRowFragment | null>(null);

  const { data, previousData, loading, error, refetch } = useQuery(AdminUsersDocument, {
    variables: { search: serverSearch || null, offset: page * rowsPerPage, limit: rowsPerPage },
    fetchPolicy: 'cache-and-network',
  });
  const [unlockUser] = useMutation(AdminUnlockUserDocument);
  const [deleteUser, { loading: deleting }] = useMutation(AdminDeleteUserDocument);
  const result = (data ?? previousData)?.adminUsers;

  const onUnlock = async (user: AdminUserRowFragment) => {
    try {
      await unlockUser({ variables: { userId: user.id } });
      setSuccess(`User ${user.email} has been unlocked successfully`);
    } catch (err) {
      setActionError(errorText(err, 'Failed to unlock user'));
    }
  };

  const onDelete = async () => {
    if (!toDelete) return;
    const user = toDelete;
    try {
      await deleteUser({ variables: { id: user.id } });
      setToDelete(null);
      setSuccess(`User ${user.email} has been deleted successfully`);
      await refetch();
    } catch (err) {
      setToDelete(null);
      setActionError(errorText(err, 'Failed to delete user'));
    }
  };

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <AdminPageHeader title="User Management" back="/admin">
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => void navigate('/admin/users/new')}>
          Add User
        </Button>
      </AdminPageHeader>
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
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(error, 'Failed to load users')}
        </Alert>
      )}
      <TextField
        fullWidth
        placeholder="Search users..."
        aria-label="Search users"
        value={search}
        onChange={(e) => {
          setSearch(e.target.value);
          setPage(0);
        }}
        sx={{ mb: 2 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon />
              </InputAdornment>
            ),
          },
        }}
      />
      <Paper>
        {loading && <LinearProgress />}
        <TableContainer>
          <Table>
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Email</TableCell>
                <TableCell>Role</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Sessions</TableCell>
                <TableCell>Joined</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {result?.items.map((user) => (
                <TableRow key={user.id} hover>
                  <TableCell>{user.name}</TableCell>
                  <TableCell>{user.email}</TableCell>
                  <TableCell>
                    <Chip size="small" label={user.role} color={user.isAdmin ? 'secondary' : 'default'} />
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={user.isLocked ? 'Locked' : 'Active'}
                      color={user.isLocked ? 'error' : 'success'}
                    />
                  </TableCell>
                  <TableCell>{user.sessionCount}</TableCell>
                  <TableCell>{formatDate(user.createdAt)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title="Edit">
                      <IconButton
                        aria-label={`Edit ${user.email}`}
                        onClick={() => void navigate(`/admin/users/edit/${user.id}`)}
                      >
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    {user.isLocked && (
                      <Tooltip title="Unlock">
                        <IconButton
                          aria-label={`Unlock ${user.email}`}
                          color="warning"
                          onClick={() => void onUnlock(user)}
                        >
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
                          onClick={() => setToDelete(user)}
                        >
                          <DeleteIcon />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
              {result && result.items.length === 0 && (
                <TableRow>
                  <TableCell colSpan={7} align="center">
                    No users found
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={result?.total ?? 0}
          page={page}
          rowsPerPage={rowsPerPage}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_, next) => setPage(next)}
          onRowsPerPageChange={(e) => {
            setRowsPerPage(Number(e.target.value));
            setPage(0);
          }}
        />
      </Paper>
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete User"
        confirmLabel="Delete"
        busy={deleting}
        onConfirm={() => void onDelete()}
        onCancel={() => setToDelete(null)}
        danger
        message={`Are you sure you want to delete the user ${toDelete?.email ?? ''}? This cannot be undone.`}
      />
    </Container>
  );
}
