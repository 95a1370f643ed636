import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function DevicesPage() {
  return <PlaceholderPage title="Device Security" />;
}
