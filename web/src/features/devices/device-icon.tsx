import ComputerIcon from '@mui/icons-material/Computer';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import TabletIcon from '@mui/icons-material/Tablet';

/** Icon by the server's device type: mobile, tablet or anything else (a computer). */
export function DeviceIcon({ type }: { type: string }) {
  const kind = type.toLowerCase();
  if (kind === 'mobile') return <PhoneAndroidIcon aria-hidden />;
  if (kind === 'tablet') return <TabletIcon aria-hidden />;
  return <ComputerIcon aria-hidden />;
}

export function deviceTypeLabel(type: string): string {
  const kind = type.toLowerCase();
  if (kind === 'mobile') return 'Mobile';
  if (kind === 'tablet') return 'Tablet';
  return 'Desktop';
}
