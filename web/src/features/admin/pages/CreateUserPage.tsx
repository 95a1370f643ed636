import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function CreateUserPage() {
  return <PlaceholderPage title="Create User" />;
}
