import { AUTH_MESSAGES, validateNewPassword } from '@nimbus/common';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { invitationsApi, useInvitationPreviewQuery } from '../../api/invitations.api';
import { Button } from '../../components/Button';
import { CenteredCard } from '../../components/CenteredCard';
import { FormError } from '../../components/FormError';
import { Logo } from '../../components/Logo';
import { FullPageSpinner, Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { useSignIn } from '../session/useSession';
import { errorCodeOf, invitationErrorMessage } from './invitation-errors';

export const INVITATION_GONE = 'This invitation does not exist or has expired';

function InvitationGone() {
  return (
    <CenteredCard>
      <div className="mb-6 flex h-10 justify-center">
        <Logo />
      </div>
      <h1 className="mb-4 text-center text-2xl font-normal text-ink">{INVITATION_GONE}</h1>
      <p className="text-center text-sm text-muted">Ask the person who invited you for a new invitation.</p>
      <Link to="/" className="mt-6 inline-block text-sm font-medium text-primary hover:underline">
        Go to the sign-in page
      </Link>
    </CenteredCard>
  );
}

function SignupForm({ token, email }: { token: string; email: string }) {
  const [password, setPassword] = useState('');
  const [verifyPassword, setVerifyPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [gone, setGone] = useState(false);
  const navigate = useNavigate();
  const signIn = useSignIn();

  const invalid = password && verifyPassword ? validateNewPassword(password, verifyPassword) : null;
  const canSubmit = !!password && !!verifyPassword && !invalid && !busy;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    setFailure(null);
    try {
      const { user } = await invitationsApi.signUp({ email, password, invitation: token });
      signIn(user);
      void navigate('/home', { replace: true });
    } catch (err) {
      if (errorCodeOf(err) === 'INVITATION_NOT_FOUND') setGone(true);
      else setFailure(invitationErrorMessage(err, AUTH_MESSAGES.createAccountError));
      setBusy(false);
    }
  };

  if (gone) return <InvitationGone />;
  const edit = (set: (value: string) => void) => (value: string) => {
    setFailure(null);
    set(value);
  };

  return (
    <CenteredCard>
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={busy} aria-label="Create your account">
        <div className="mb-6 flex h-10 justify-center">{busy ? <Spinner className="size-10" label="Working" /> : <Logo />}</div>
        <h1 className="mb-2 text-center text-2xl font-normal text-ink">Create your account</h1>
        <p className="mb-6 text-center text-sm text-muted">You were invited to this Nimbus server.</p>
        <div className="space-y-4">
          <TextField label="Email address" type="email" value={email} onChange={() => undefined} readOnly aria-readonly="true" />
          <TextField label="Password" type="password" autoComplete="new-password" value={password} onChange={edit(setPassword)} />
          <TextField
            label="Verify password"
            type="password"
            autoComplete="new-password"
            value={verifyPassword}
            onChange={edit(setVerifyPassword)}
          />
        </div>
        <Button type="submit" disabled={!canSubmit} className="mt-6 w-full">
          Create account
        </Button>
        <div className="mt-4 min-h-5">
          <FormError message={failure ?? invalid} />
        </div>
      </form>
    </CenteredCard>
  );
}

/** `/invite/:token`: the account-creation form of an invitation, its e-mail fixed by the invitation. */
export function InvitationSignupPage() {
  const { token = '' } = useParams();
  const preview = useInvitationPreviewQuery(token);
  if (preview.isPending) return <FullPageSpinner />;
  if (preview.isError) {
    // Only a lost connection is worth retrying; any other failure means the link is of no use.
    if (errorCodeOf(preview.error) !== 'NETWORK_ERROR') return <InvitationGone />;
    return (
      <CenteredCard>
        <FormError message={invitationErrorMessage(preview.error)} />
      </CenteredCard>
    );
  }
  return <SignupForm token={token} email={preview.data.email} />;
}
