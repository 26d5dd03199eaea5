import { ResetPasswordPage } from '../features/account/ResetPasswordPage';

export function Component() {
  return <ResetPasswordPage />;
}
