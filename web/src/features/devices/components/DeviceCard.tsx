import { Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { relativeTime } from '../../../components/relative-time';
import type { MyDevicesQuery } from '../../../gql/graphql';
import { DeviceIcon, deviceTypeLabel } from '../device-icon';
import { deviceLabel } from '../device-label';

export type Device = MyDevicesQuery['myDevices'][number];

export function DeviceCard({ device, onDeactivate }: { device: Device; onDeactivate: () => void }) {
  const label = deviceLabel(device);
  return (
    <Card variant="outlined" component="article" aria-label={label}>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
          <DeviceIcon type={device.deviceType} />
          <Stack spacing={0.5} sx={{ flexGrow: 1 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="subtitle1" component="h3">
                {label}
              </Typography>
              {device.isCurrent && <Chip size="small" color="primary" label="Current Device" />}
            </Stack>
            <Typography variant="body2" color="text.secondary">
              Type: {deviceTypeLabel(device.deviceType)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              IP Address: {device.ipAddress || 'Unknown'}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Last Activity: {relativeTime(device.lastActivity)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              First Login: {new Date(device.createdAt).toLocaleString()}
            </Typography>
          </Stack>
          {!device.isCurrent && (
            <Button color="error" variant="outlined" onClick={onDeactivate} aria-label={`Deactivate ${label}`}>
              Deactivate
            </Button>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
