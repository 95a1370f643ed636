import { useMutation, useQuery } from '@apollo/client/react';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import GroupIcon from '@mui/icons-material/Group';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Button,
  Chip,
  Container,
  FormControl,
  IconButton,
  InputAdornment,
  InputLabel,
  LinearProgress,
  MenuItem,
  Paper,
  Select,
  Stack,
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
  AdminDeleteFileDocument,
  AdminFilesDocument,
  type AdminFileRowFragment,
  type FileStatusFilter,
} from '../../../gql/graphql';
import { useDebouncedValue } from '../../library/hooks/useDebouncedValue';
import { errorText, formatBytes, formatDate, formatDurationShort } from '../admin-format';
import { AdminPageHeader } from '../components/AdminPageHeader';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useTimedMessage } from '../hooks/useTimedMessage';

const STATUS_OPTIONS: { value: FileStatusFilter; label: string }[] = [
  { value: 'ALL', label: 'All Files' },
  { value: 'PUBLIC', label: 'Public' },
  { value: 'PRIVATE', label: 'Private' },
];

export function FileListPage() {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const serverSearch = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<FileStatusFilter>('ALL');
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(10);
  const [success, setSuccess] = useTimedMessage(3000);
  const [actionError, setActionError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<AdminFileRowFragment | null>(null);

  const { data, previousData, loading, error, refetch } = useQuery(AdminFilesDocument, {
    variables: { search: serverSearch || null, status, offset: page * rowsPerPage, limit: rowsPerPage },
    fetchPolicy: 'cache-and-network',
  });
  const [deleteFile, { loading: deleting }] = useMutation(AdminDeleteFileDocument);
  const result = (data ?? previousData)?.adminFiles;

  const onDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteFile({ variables: { id: toDelete.id } });
      setSuccess('File deleted successfully');
      setActionError(null);
      await refetch();
    } catch (err) {
      setActionError(errorText(err, 'Failed to delete file'));
    } finally {
      setToDelete(null);
    }
  };

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <AdminPageHeader title="File Management" back="/admin">
        <Button
          variant="contained"
          startIcon={<CloudUploadIcon />}
          onClick={() => void navigate('/admin/files/upload')}
        >
          Upload File
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
          {errorText(error, 'Failed to load audio files')}
        </Alert>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          fullWidth
          placeholder="Search files..."
          aria-label="Search files"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
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
        <FormControl sx={{ minWidth: 180 }}>
          <InputLabel id="file-status-label">Status</InputLabel>
          <Select
            labelId="file-status-label"
            label="Status"
            value={status}
            onChange={(e) => {
              setStatus(STATUS_OPTIONS.find((o) => o.value === e.target.value)?.value ?? 'ALL');
              setPage(0);
            }}
          >
            {STATUS_OPTIONS.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      <Paper>
        {loading && <LinearProgress />}
        <TableContainer>
          <Table>
            <TableHead>
              <TableRow>
                <TableCell>Title</TableCell>
                <TableCell>Filename</TableCell>
                <TableCell>Duration</TableCell>
                <TableCell>Size</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Uploaded</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {result?.items.map((file) => (
                <TableRow key={file.id} hover>
                  <TableCell>{file.title}</TableCell>
                  <TableCell>{file.filename}</TableCell>
                  <TableCell>{formatDurationShort(file.duration)}</TableCell>
                  <TableCell>{formatBytes(file.size)}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={file.isPublic ? 'Public' : 'Private'}
                      color={file.isPublic ? 'success' : 'default'}
                    />
                  </TableCell>
                  <TableCell>{formatDate(file.createdAt)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title="Preview">
                      <IconButton
                        aria-label={`Preview ${file.title}`}
                        onClick={() => void navigate(`/player/${file.id}`)}
                      >
                        <PlayArrowIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Manage Access">
                      <IconButton
                        aria-label={`Manage Access ${file.title}`}
                        onClick={() => void navigate(`/admin/files/${file.id}/access`)}
                      >
                        <GroupIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Edit">
                      <IconButton
                        aria-label={`Edit ${file.title}`}
                        onClick={() => void navigate(`/admin/files/edit/${file.id}`)}
                      >
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Delete">
                      <IconButton aria-label={`Delete ${file.title}`} color="error" onClick={() => setToDelete(file)}>
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
              {result && result.items.length === 0 && (
                <TableRow>
                  <TableCell colSpan={7} align="center">
                    No audio files found
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
          rowsPerPageOptions={[5, 10, 25]}
          onPageChange={(_, next) => setPage(next)}
          onRowsPerPageChange={(e) => {
            setRowsPerPage(Number(e.target.value));
            setPage(0);
          }}
        />
      </Paper>
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete File"
        confirmLabel="Delete"
        busy={deleting}
        onConfirm={() => void onDelete()}
        onCancel={() => setToDelete(null)}
        danger
        message={`Are you sure you want to delete "${toDelete?.title ?? ''}"? Its audio, cover, chapters and access grants are removed.`}
      />
    </Container>
  );
}
