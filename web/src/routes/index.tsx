import { AuthPage } from '../features/auth/AuthPage';

export function Component() {
  return <AuthPage />;
}
