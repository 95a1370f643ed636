import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function FileAccessPage() {
  return <PlaceholderPage title="Manage Access" />;
}
