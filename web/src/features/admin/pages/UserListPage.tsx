import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function UserListPage() {
  return <PlaceholderPage title="User Management" />;
}
