import { VerifyEmailPage } from '../features/account/VerifyEmailPage';

export function Component() {
  return <VerifyEmailPage />;
}
