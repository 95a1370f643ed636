import { Alert, AlertTitle, Box, Button, Stack, Typography, type AlertColor } from '@mui/material';
import type { DeviceWarning } from '../../../app/stored-session';

const TITLES: Record<string, string> = {
  new_device: 'New Device Login',
  device_locked: 'Device Session Locked',
  suspicious_activity: 'Suspicious Activity Detected',
  max_devices_reached: 'Maximum Devices Reached',
};

// The spec's "danger" is MUI's error colour.
const SEVERITIES: Record<string, AlertColor> = {
  new_device: 'info',
  device_locked: 'error',
  suspicious_activity: 'error',
  max_devices_reached: 'warning',
};

interface Props {
  warnings: DeviceWarning[];
  onDismiss: (index: number) => void;
  onDismissAll: () => void;
}

/** Security warnings the server attached to this sign-in. */
export function DeviceWarnings({ warnings, onDismiss, onDismissAll }: Props) {
  if (warnings.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="device-warnings">
      {warnings.map((warning, index) => (
        <Alert
          key={warning.id ?? `${warning.type}-${index}`}
          severity={SEVERITIES[warning.type] ?? 'info'}
          onClose={() => onDismiss(index)}
        >
          <AlertTitle>{TITLES[warning.type] ?? 'Security Alert'}</AlertTitle>
          {warning.message}
          {(warning.deviceName || warning.timestamp) && (
            <Typography variant="caption" component="div" sx={{ mt: 0.5 }}>
              {[warning.deviceName, warning.timestamp && new Date(warning.timestamp).toLocaleString()]
                .filter(Boolean)
                .join(' · ')}
            </Typography>
          )}
        </Alert>
      ))}
      {warnings.length > 1 && (
        <Box sx={{ textAlign: 'right' }}>
          <Button size="small" onClick={onDismissAll}>
            Dismiss All
          </Button>
        </Box>
      )}
    </Stack>
  );
}
