import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import BarChartIcon from '@mui/icons-material/BarChart';
import DevicesIcon from '@mui/icons-material/Devices';
import LibraryMusicIcon from '@mui/icons-material/LibraryMusic';
import LogoutIcon from '@mui/icons-material/Logout';
import { Button, Card, CardContent, Container, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useAuth } from '../../auth/auth-context';
import { DeviceSummaryCard } from '../components/DeviceSummaryCard';
import { PersonalInfoCard } from '../components/PersonalInfoCard';

/** /profile: personal details, devices at a glance, quick actions and logout. */
export function ProfilePage() {
  const navigate = useNavigate();
  const { isAdmin, logout } = useAuth();
  const [confirmLogout, setConfirmLogout] = useState(false);
  const [leaving, setLeaving] = useState(false);

  const onLogout = async () => {
    setLeaving(true);
    await logout();
    void navigate('/login', { replace: true });
  };

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 3 }}>
        <Typography variant="h4" component="h1">
          Profile
        </Typography>
        <Button color="error" variant="outlined" startIcon={<LogoutIcon />} onClick={() => setConfirmLogout(true)}>
          Logout
        </Button>
      </Stack>
      <Stack spacing={3}>
        <PersonalInfoCard />
        <DeviceSummaryCard />
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              Quick Actions
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <Button variant="outlined" startIcon={<DevicesIcon />} onClick={() => void navigate('/devices')}>
                Manage Devices
              </Button>
              <Button variant="outlined" startIcon={<BarChartIcon />} onClick={() => void navigate('/stats')}>
                Listening Stats
              </Button>
              {isAdmin && (
                <Button
                  variant="outlined"
                  startIcon={<AdminPanelSettingsIcon />}
                  onClick={() => void navigate('/admin')}
                >
                  Admin Dashboard
                </Button>
              )}
              <Button variant="outlined" startIcon={<LibraryMusicIcon />} onClick={() => void navigate('/')}>
                Back to Library
              </Button>
            </Stack>
          </CardContent>
        </Card>
      </Stack>
      <ConfirmDialog
        open={confirmLogout}
        title="Logout"
        message="Are you sure you want to log out?"
        confirmLabel="Logout"
        busy={leaving}
        onCancel={() => setConfirmLogout(false)}
        onConfirm={() => void onLogout()}
      />
    </Container>
  );
}
