import { useQuery } from '@apollo/client/react';
import AudioFileIcon from '@mui/icons-material/AudioFile';
import PeopleIcon from '@mui/icons-material/People';
import ScheduleIcon from '@mui/icons-material/Schedule';
import StorageIcon from '@mui/icons-material/Storage';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  CircularProgress,
  Container,
  Grid,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { AdminDashboardDocument } from '../../../gql/graphql';
import { errorText, formatBytes, formatDate, formatDurationShort } from '../admin-format';
import { BackupPanel } from '../components/BackupPanel';
import { RipAlertsPanel } from '../components/RipAlertsPanel';
import { useLiveRipAlerts } from '../hooks/useLiveRipAlerts';

function StatCard({
  title,
  value,
  icon,
  children,
}: {
  title: string;
  value: string;
  icon: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Card sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
          {icon}
          <Typography variant="subtitle2" component="h2">
            {title}
          </Typography>
        </Stack>
        <Typography variant="h4" sx={{ mt: 1 }}>
          {value}
        </Typography>
      </CardContent>
      {children}
    </Card>
  );
}

/** Public against private files as one bar: seen at a glance, no chart library needed. */
function VisibilityBar({ publicFiles, privateFiles }: { publicFiles: number; privateFiles: number }) {
  const total = publicFiles + privateFiles;
  const publicShare = total ? (publicFiles / total) * 100 : 0;
  return (
    <Box
      role="img"
      aria-label={`${publicFiles} public and ${privateFiles} private files`}
      sx={{ display: 'flex', height: 8, borderRadius: 1, overflow: 'hidden', bgcolor: 'action.selected', mt: 1 }}
    >
      <Box sx={{ width: `${publicShare}%`, bgcolor: 'success.main' }} />
      <Box sx={{ width: `${total ? 100 - publicShare : 0}%`, bgcolor: 'warning.main' }} />
    </Box>
  );
}

export function AdminDashboardPage() {
  const navigate = useNavigate();
  const { data, loading, error } = useQuery(AdminDashboardDocument, { fetchPolicy: 'cache-and-network' });
  useLiveRipAlerts();
  const stats = data?.dashboardStats;

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 3 }}>
        <Typography variant="h4" component="h1">
          Admin Dashboard
        </Typography>
        <Button variant="outlined" onClick={() => void navigate('/')}>
          Back to Library
        </Button>
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(error, 'Failed to load dashboard statistics')}
        </Alert>
      )}
      {loading && !stats && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress />
        </Box>
      )}
      {stats && (
        <>
          <RipAlertsPanel alerts={stats.ripAlerts} />
          <Grid container spacing={3}>
            <Grid size={{ xs: 12, sm: 6, md: 3 }}>
              <StatCard title="Total Users" value={String(stats.userCount)} icon={<PeopleIcon />}>
                <CardActions>
                  <Button size="small" onClick={() => void navigate('/admin/users')}>
                    Manage Users
                  </Button>
                </CardActions>
              </StatCard>
            </Grid>
            <Grid size={{ xs: 12, sm: 6, md: 3 }}>
              <StatCard title="Audio Files" value={String(stats.fileCount)} icon={<AudioFileIcon />}>
                <CardContent sx={{ pt: 0 }}>
                  <Typography variant="body2" color="text.secondary">
                    {stats.publicFiles} public, {stats.privateFiles} private
                  </Typography>
                  <VisibilityBar publicFiles={stats.publicFiles} privateFiles={stats.privateFiles} />
                </CardContent>
                <CardActions>
                  <Button size="small" onClick={() => void navigate('/admin/files')}>
                    Manage Files
                  </Button>
                </CardActions>
              </StatCard>
            </Grid>
            <Grid size={{ xs: 12, sm: 6, md: 3 }}>
              <StatCard
                title="Total Play Time"
                value={formatDurationShort(stats.totalDuration)}
                icon={<ScheduleIcon />}
              >
                <CardActions>
                  <Button size="small" disabled>
                    View Analytics
                  </Button>
                </CardActions>
              </StatCard>
            </Grid>
            <Grid size={{ xs: 12, sm: 6, md: 3 }}>
              <StatCard title="Storage Used" value={formatBytes(stats.totalSize)} icon={<StorageIcon />}>
                <CardActions>
                  <Button size="small" disabled>
                    Manage Storage
                  </Button>
                </CardActions>
              </StatCard>
            </Grid>
          </Grid>

          <Grid container spacing={3} sx={{ mt: 1 }}>
            <Grid size={{ xs: 12, md: 4 }}>
              <Paper sx={{ p: 2 }}>
                <Typography variant="h6" component="h2" gutterBottom>
                  Quick Actions
                </Typography>
                <Stack spacing={1}>
                  <Button variant="contained" onClick={() => void navigate('/admin/files/upload')}>
                    Upload New File
                  </Button>
                  <Button variant="outlined" onClick={() => void navigate('/admin/users/new')}>
                    Create New User
                  </Button>
                  <Button variant="outlined" onClick={() => void navigate('/admin/stats')}>
                    Listening Stats
                  </Button>
                  <Button variant="outlined" onClick={() => void navigate('/admin/collections')}>
                    Collections
                  </Button>
                  <Button variant="outlined" onClick={() => void navigate('/admin/api-keys')}>
                    API Keys
                  </Button>
                  <Button variant="outlined" onClick={() => void navigate('/admin/graphql')}>
                    GraphQL Explorer
                  </Button>
                  <Button variant="outlined" disabled>
                    System Settings
                  </Button>
                </Stack>
              </Paper>
              <Box sx={{ mt: 3 }}>
                <BackupPanel status={stats.backupStatus} />
              </Box>
            </Grid>
            <Grid size={{ xs: 12, md: 8 }}>
              <Paper sx={{ p: 2 }}>
                <Typography variant="h6" component="h2" gutterBottom>
                  Recent Uploads
                </Typography>
                {stats.recentUploads.length === 0 ? (
                  <Typography color="text.secondary">No recent uploads</Typography>
                ) : (
                  <List dense>
                    {stats.recentUploads.map((file) => (
                      <ListItem key={file.id} divider>
                        <ListItemText
                          primary={file.title}
                          secondary={`${file.filename} · ${formatDurationShort(file.duration)} · ${formatDate(file.createdAt)}`}
                        />
                      </ListItem>
                    ))}
                  </List>
                )}
              </Paper>
            </Grid>
          </Grid>
        </>
      )}
    </Container>
  );
}
