import { useMutation, useQuery } from '@apollo/client/react';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import RefreshIcon from '@mui/icons-material/Refresh';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Container,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DeactivateDeviceDocument, DeactivateOtherDevicesDocument, MyDevicesDocument } from '../../../gql/graphql';
import { useAuth } from '../../auth/auth-context';
import { DeviceWarnings } from '../../auth/components/DeviceWarnings';
import { DeviceCard, type Device } from '../components/DeviceCard';
import { currentFirst, deviceLabel } from '../device-label';

const SECURITY_TIPS = [
  'Only sign in on devices you own and trust.',
  'Your account allows one active device; signing in on another device can lock it permanently.',
  'Deactivate any device you do not recognize, then change your password.',
  'Always log out on shared or public computers.',
];

type Pending = { kind: 'one'; device: Device } | { kind: 'others' } | null;

function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** /devices: the signed-in user's active devices, with deactivation. */
export function DevicesPage() {
  const navigate = useNavigate();
  const { warnings, dismissWarning, dismissAllWarnings } = useAuth();
  const { data, dataState, loading, error, refetch } = useQuery(MyDevicesDocument, { fetchPolicy: 'network-only' });
  const [deactivateOne] = useMutation(DeactivateDeviceDocument);
  const [deactivateOthers] = useMutation(DeactivateOtherDevicesDocument);
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const devices = currentFirst(dataState === 'complete' ? data.myDevices : []);
  const others = devices.filter((d) => !d.isCurrent);

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    setSuccess(null);
    setActionError(null);
    try {
      if (pending.kind === 'one') {
        await deactivateOne({ variables: { deviceId: pending.device.deviceId } });
        setSuccess('Device deactivated successfully');
      } else {
        const result = await deactivateOthers();
        setSuccess(`Successfully deactivated ${result.data?.deactivateOtherDevices ?? 0} device(s)`);
      }
      await refetch();
    } catch (e) {
      const fallback = pending.kind === 'one' ? 'Failed to deactivate device' : 'Failed to deactivate other devices';
      setActionError(errorText(e, fallback));
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate('/')} sx={{ mb: 2 }}>
        Back to Library
      </Button>
      <Typography variant="h4" component="h1" gutterBottom>
        Device Security
      </Typography>

      <Box component="section" aria-label="Security alerts" sx={{ mb: 3 }}>
        <DeviceWarnings warnings={warnings} onDismiss={dismissWarning} onDismissAll={dismissAllWarnings} />
        {others.length > 0 ? (
          <Alert severity="warning">
            Your account is active on {devices.length} devices. If you do not recognize one, deactivate it.
          </Alert>
        ) : (
          dataState === 'complete' && <Alert severity="success">Only this device is signed in to your account.</Alert>
        )}
      </Box>

      {success && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setSuccess(null)}>
          {success}
        </Alert>
      )}
      {(actionError || error) && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {actionError ?? (error?.message || 'Failed to load devices')}
        </Alert>
      )}

      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
        <Typography variant="h6" component="h2">
          Active Devices ({devices.length})
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button startIcon={<RefreshIcon />} onClick={() => void refetch()} disabled={loading}>
            Refresh
          </Button>
          <Button
            color="error"
            variant="contained"
            disabled={devices.length <= 1}
            onClick={() => setPending({ kind: 'others' })}
          >
            Deactivate All Other Devices
          </Button>
        </Stack>
      </Stack>

      {loading && dataState !== 'complete' ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="Loading devices" />
        </Box>
      ) : (
        <Stack spacing={2} sx={{ mb: 4 }}>
          {devices.map((device) => (
            <DeviceCard key={device.id} device={device} onDeactivate={() => setPending({ kind: 'one', device })} />
          ))}
        </Stack>
      )}

      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography variant="h6" component="h2">
          Security Tips
        </Typography>
        <List dense>
          {SECURITY_TIPS.map((tip) => (
            <ListItem key={tip}>
              <ListItemText primary={tip} />
            </ListItem>
          ))}
        </List>
      </Paper>

      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'others' ? 'Deactivate All Other Devices' : 'Deactivate Device'}
        message={
          pending?.kind === 'one'
            ? `Are you sure you want to deactivate ${deviceLabel(pending.device)}? It will be signed out immediately.`
            : 'Are you sure you want to deactivate all other devices? They will be signed out immediately.'
        }
        confirmLabel="Deactivate"
        danger
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
    </Container>
  );
}
