import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function EditUserPage() {
  return <PlaceholderPage title="Edit User" />;
}
