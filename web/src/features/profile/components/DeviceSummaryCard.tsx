import { useQuery } from '@apollo/client/react';
import { Alert, Card, CardContent, List, ListItem, ListItemIcon, ListItemText, Typography } from '@mui/material';
import { relativeTime } from '../../../components/relative-time';
import { MyDevicesDocument } from '../../../gql/graphql';
import { DeviceIcon } from '../../devices/device-icon';
import { currentFirst, deviceLabel } from '../../devices/device-label';

const SHOWN = 3;

/** Active device count and the first three devices (this one first); the rest as '+N more devices'. */
export function DeviceSummaryCard() {
  const { data, dataState, error } = useQuery(MyDevicesDocument, { fetchPolicy: 'cache-and-network' });
  const devices = currentFirst(dataState === 'complete' ? data.myDevices : []);
  const more = devices.length - SHOWN;
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2">
          Device Security
        </Typography>
        <Typography color="text.secondary">Active devices: {devices.length}</Typography>
        {error && <Alert severity="error">{error.message || 'Failed to load devices'}</Alert>}
        <List dense>
          {devices.slice(0, SHOWN).map((device) => (
            <ListItem key={device.id} disableGutters>
              <ListItemIcon>
                <DeviceIcon type={device.deviceType} />
              </ListItemIcon>
              <ListItemText
                primary={device.isCurrent ? `${deviceLabel(device)} (Current Device)` : deviceLabel(device)}
                secondary={`Last activity: ${relativeTime(device.lastActivity)}`}
              />
            </ListItem>
          ))}
        </List>
        {more > 0 && <Typography variant="body2">+{more} more devices</Typography>}
      </CardContent>
    </Card>
  );
}
