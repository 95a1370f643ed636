import { useMutation, useQuery } from '@apollo/client/react';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import GroupIcon from '@mui/icons-material/Group';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import {
  Box,
  Button,
  Chip,
  FormControl,
  IconButton,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Tooltip,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import {
  AdminDeleteFileDocument,
  AdminFilesDocument,
  type AdminFileRowFragment,
  type FileStatusFilter,
} from '../../../gql/graphql';
import { errorText, formatBytes, formatDate, formatDurationShort } from '../admin-format';
import { SearchField } from '../../../components/SearchField';
import { AdminListPage } from '../components/AdminListPage';
import { AdminTable, type Column } from '../components/AdminTable';
import { useBanners } from '../hooks/useBanners';
import { useConfirmedAction } from '../hooks/useConfirmedAction';
import { useListControls } from '../hooks/useListControls';

const STATUS_OPTIONS: { value: FileStatusFilter; label: string }[] = [
  { value: 'ALL', label: 'All Files' },
  { value: 'PUBLIC', label: 'Public' },
  { value: 'PRIVATE', label: 'Private' },
];

export function FileListPage() {
  const navigate = useNavigate();
  const list = useListControls();
  const [status, setStatus] = useState<FileStatusFilter>('ALL');
  const banners = useBanners({ successMs: 3000 });
  const { data, previousData, loading, error, refetch } = useQuery(AdminFilesDocument, {
    variables: { ...list.window, status },
    fetchPolicy: 'cache-and-network',
  });
  const [deleteFile] = useMutation(AdminDeleteFileDocument);
  const result = (data ?? previousData)?.adminFiles;

  const deletion = useConfirmedAction({
    title: 'Delete File',
    confirmLabel: 'Delete',
    message: (file: AdminFileRowFragment) =>
      `Are you sure you want to delete "${file.title}"? Its audio, cover, chapters and access grants are removed.`,
    run: (file) =>
      banners.attempt(async () => {
        await deleteFile({ variables: { id: file.id } });
        await refetch();
        return 'File deleted successfully';
      }, 'Failed to delete file'),
  });

  const action = (label: string, file: AdminFileRowFragment, to: string, icon: ReactNode) => (
    <Tooltip title={label}>
      <IconButton aria-label={`${label} ${file.title}`} onClick={() => void navigate(to)}>
        {icon}
      </IconButton>
    </Tooltip>
  );

  const columns: Column<AdminFileRowFragment>[] = [
    { label: 'Title', cell: (file) => file.title },
    { label: 'Filename', cell: (file) => file.filename },
    { label: 'Duration', cell: (file) => formatDurationShort(file.duration) },
    { label: 'Size', cell: (file) => formatBytes(file.size) },
    {
      label: 'Status',
      cell: (file) => (
        <Chip size="small" label={file.isPublic ? 'Public' : 'Private'} color={file.isPublic ? 'success' : 'default'} />
      ),
    },
    { label: 'Uploaded', cell: (file) => formatDate(file.createdAt) },
    {
      label: 'Actions',
      align: 'right',
      cell: (file) => (
        <Box>
          {action('Preview', file, `/player/${file.id}`, <PlayArrowIcon />)}
          {action('Manage Access', file, `/admin/files/${file.id}/access`, <GroupIcon />)}
          {action('Edit', file, `/admin/files/edit/${file.id}`, <EditIcon />)}
          <Tooltip title="Delete">
            <IconButton aria-label={`Delete ${file.title}`} color="error" onClick={() => deletion.ask(file)}>
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        </Box>
      ),
    },
  ];

  return (
    <AdminListPage
      title="File Management"
      back="/admin"
      banners={banners}
      loadError={error && errorText(error, 'Failed to load audio files')}
      actions={
        <Button
          variant="contained"
          startIcon={<CloudUploadIcon />}
          onClick={() => void navigate('/admin/files/upload')}
        >
          Upload File
        </Button>
      }
    >
      {deletion.dialog}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <SearchField label="Search files" value={list.search} onChange={list.setSearch} />
        <FormControl sx={{ minWidth: 180 }}>
          <InputLabel id="file-status-label">Status</InputLabel>
          <Select
            labelId="file-status-label"
            label="Status"
            value={status}
            onChange={(e) => {
              setStatus(STATUS_OPTIONS.find((o) => o.value === e.target.value)?.value ?? 'ALL');
              list.firstPage();
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
      <AdminTable
        label="Audio files"
        columns={columns}
        page={result}
        empty="No audio files found"
        loading={loading}
        paging={list.paging}
      />
    </AdminListPage>
  );
}
