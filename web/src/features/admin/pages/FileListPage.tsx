import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function FileListPage() {
  return <PlaceholderPage title="File Management" />;
}
