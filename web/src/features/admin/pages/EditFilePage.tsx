import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function EditFilePage() {
  return <PlaceholderPage title="Edit File" />;
}
