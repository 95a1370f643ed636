import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function PlayerPage() {
  return <PlaceholderPage title="Secure Player" />;
}
