import { InvitationSignupPage } from '../features/invitation/InvitationSignupPage';

export function Component() {
  return <InvitationSignupPage />;
}
