import type { LoginResponse, UserDto } from '@nimbus/common';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/api-error';
import { browserHasPasskeys, passkeysApi } from '../../api/passkeys.api';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { useRememberedLocation } from '../session/RequireAuth';
import { useSignIn } from '../session/useSession';

/** What went wrong, in words: the browser's own refusals (cancelled, timed out) are not the server's. */
export function passkeyErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'PASSKEY_REFUSED') return 'This passkey was not accepted. Use another, or sign in with your password.';
    if (error.code === 'ACCOUNT_DISABLED') return 'This account is disabled.';
    if (error.code === 'INVALID_TICKET') return 'This sign-in has expired; sign in again.';
    if (error.status === 429) return 'Too many attempts; try again later.';
    return 'Could not sign in with a passkey. Try again.';
  }
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
    return 'No passkey was used (cancelled or timed out).';
  return 'Could not sign in with a passkey. Try again.';
}

/** Runs one passkey ceremony, then signs the app in and goes where the user was headed (or hands the user on). */
function usePasskeyCeremony(run: () => Promise<LoginResponse>, onSignedIn?: (user: UserDto) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const remembered = useRememberedLocation();
  const signIn = useSignIn();
  const start = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const { user } = await run();
      if (onSignedIn) return onSignedIn(user);
      signIn(user);
      void navigate(remembered ?? '/home', { replace: true });
    } catch (err) {
      setError(passkeyErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, start };
}

/** "Sign in with a passkey" on the login screen, for browsers that have WebAuthn: no e-mail or password asked. */
export function PasskeySignIn() {
  const ceremony = usePasskeyCeremony(passkeysApi.signIn);
  if (!browserHasPasskeys()) return null;
  return (
    <div className="mt-2">
      <Button type="button" variant="secondary" className="w-full" disabled={ceremony.busy} onClick={() => void ceremony.start()}>
        Sign in with a passkey
      </Button>
      {ceremony.error && (
        <div className="mt-2">
          <FormError message={ceremony.error} />
        </div>
      )}
    </div>
  );
}

/** "Use a passkey" in the second step of a password sign-in, for the ticket of its first step. */
export function PasskeySecondFactor({ ticket, onSignedIn }: { ticket: string; onSignedIn: (user: UserDto) => void }) {
  const ceremony = usePasskeyCeremony(() => passkeysApi.secondFactor(ticket), onSignedIn);
  if (!browserHasPasskeys()) return null;
  return (
    <div className="mt-2">
      <Button type="button" variant="secondary" className="w-full" disabled={ceremony.busy} onClick={() => void ceremony.start()}>
        Use a passkey
      </Button>
      {ceremony.error && (
        <div className="mt-2">
          <FormError message={ceremony.error} />
        </div>
      )}
    </div>
  );
}
