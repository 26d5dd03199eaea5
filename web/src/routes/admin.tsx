import { AdminPage } from '../features/admin/AdminPage';

export function Component() {
  return <AdminPage />;
}
