import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function UploadFilePage() {
  return <PlaceholderPage title="Upload Audio File" />;
}
