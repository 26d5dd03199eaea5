import { ACCOUNT_MESSAGES, TIMINGS, validateNewPassword } from '@nimbus/common';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { statusOf } from '../../api/api-error';
import { userApi } from '../../api/user.api';
import { Button } from '../../components/Button';
import { CenteredCard } from '../../components/CenteredCard';
import { FormError } from '../../components/FormError';
import { Logo } from '../../components/Logo';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { progressToast } from '../notifications/progress-toast';
import { useSignOutLocally } from '../session/useSession';

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [verifyPassword, setVerifyPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const navigate = useNavigate();
  const signOutLocally = useSignOutLocally();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const invalid = password || verifyPassword ? validateNewPassword(password, verifyPassword) : null;
  const canSubmit = !!password && !!verifyPassword && !invalid && !busy && !done;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    setFailure(null);
    const toast = progressToast(ACCOUNT_MESSAGES.resettingPassword);
    try {
      await userApi.resetPassword({ passwordToken: token, password });
      toast.success(ACCOUNT_MESSAGES.passwordReset);
      // The server ended every session of the account, this one included.
      signOutLocally();
      setDone(true);
      timer.current = setTimeout(() => void navigate('/', { replace: true }), TIMINGS.redirectDelayMs);
    } catch (err) {
      const message = statusOf(err) === 401 ? ACCOUNT_MESSAGES.invalidToken : ACCOUNT_MESSAGES.resetPasswordFailed;
      toast.error(message);
      setFailure(message);
    } finally {
      setBusy(false);
    }
  };

  const edit = (set: (value: string) => void) => (value: string) => {
    setFailure(null);
    set(value);
  };

  return (
    <CenteredCard>
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={busy}>
        <div className="mb-6 flex h-10 justify-center">{busy ? <Spinner className="size-10" label="Working" /> : <Logo />}</div>
        <h1 className="mb-6 text-center text-2xl font-normal text-ink">Reset Password</h1>
        <div className="space-y-4">
          <TextField label="Password" type="password" autoComplete="new-password" value={password} onChange={edit(setPassword)} />
          <TextField
            label="Verify Password"
            type="password"
            autoComplete="new-password"
            value={verifyPassword}
            onChange={edit(setVerifyPassword)}
          />
        </div>
        <Button type="submit" disabled={!canSubmit} className="mt-6 w-full">
          Reset
        </Button>
        <div className="mt-4 min-h-5">
          <FormError message={failure ?? invalid} />
        </div>
        <Link to="/" className="mt-2 inline-block text-sm font-medium text-primary hover:underline">
          Back to Login
        </Link>
      </form>
    </CenteredCard>
  );
}
