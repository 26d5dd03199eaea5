import type { SecondFactorChallengeDto, TwoFactorSetupDto, UserDto } from '@nimbus/common';
import { useState, type FormEvent } from 'react';
import { twoFactorApi } from '../../api/two-factor.api';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { Logo } from '../../components/Logo';
import { TextField } from '../../components/TextField';
import { PasskeySecondFactor } from './PasskeySignIn';
import { RecoveryCodesList } from '../two-factor/RecoveryCodesList';
import { TwoFactorEnrol } from '../two-factor/TwoFactorEnrol';
import { codeErrorMessage } from '../two-factor/two-factor-errors';

type Challenge = SecondFactorChallengeDto['secondFactor'];

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh items-center justify-center px-4 py-10">
      <div className="w-full max-w-[420px] rounded-3xl bg-white px-6 py-9 shadow-sm ring-1 ring-gray-200 sm:px-10">
        <div className="mb-6 flex h-10 justify-center">
          <Logo />
        </div>
        <h1 className="mb-6 text-center text-2xl font-normal text-ink">{title}</h1>
        {children}
      </div>
    </div>
  );
}

/** The code (or a recovery code) asked for after the password of an account with two-factor on. */
function CodeStep({
  ticket,
  methods,
  onSignedIn,
  onCancel,
}: {
  ticket: string;
  methods: Challenge['methods'];
  onSignedIn: (user: UserDto) => void;
  onCancel: () => void;
}) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const value = code.trim();
  const ready = recovery ? value.length >= 10 : /^\d{6}$/.test(value.replace(/\s/g, ''));
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    try {
      const { user } = await twoFactorApi.secondStep(
        recovery ? { ticket, recoveryCode: value } : { ticket, code: value.replace(/\s/g, '') },
      );
      onSignedIn(user);
    } catch (err) {
      const message = codeErrorMessage(err);
      setError(recovery && message.startsWith('That code') ? 'That recovery code is not right, or was already used.' : message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Two-factor sign-in">
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4" aria-busy={busy}>
        <TextField
          label={recovery ? 'Enter one of your recovery codes' : 'Enter the 6-digit code from your authenticator app'}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          maxLength={recovery ? 32 : 7}
          autoFocus
          value={code}
          onChange={(next) => {
            setError(null);
            setCode(next);
          }}
        />
        <FormError message={error} />
        <Button type="submit" disabled={!ready || busy} className="w-full">
          Verify
        </Button>
        <div className="flex justify-between text-sm">
          <button
            type="button"
            className="text-primary hover:underline"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
              setError(null);
            }}
          >
            {recovery ? 'Use a code from your app instead' : 'Use a recovery code instead'}
          </button>
          <button type="button" className="text-muted hover:underline" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
      {methods.includes('passkey') && <PasskeySecondFactor ticket={ticket} onSignedIn={onSignedIn} />}
    </Card>
  );
}

/** Two-factor required by the server: set it up now (from a browser that signed in before), then sign in. */
function SetupStep({ ticket, onSignedIn, onCancel }: { ticket: string; onSignedIn: (user: UserDto) => void; onCancel: () => void }) {
  const [setup, setSetup] = useState<TwoFactorSetupDto | null>(null);
  const [done, setDone] = useState<{ user: UserDto; codes: string[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(codeErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  if (done)
    return (
      <Card title="Two-factor sign-in is on">
        <RecoveryCodesList codes={done.codes} />
        <Button className="mt-6 w-full" onClick={() => onSignedIn(done.user)}>
          Continue
        </Button>
      </Card>
    );
  return (
    <Card title="Set up two-factor sign-in">
      <p className="mb-4 text-sm text-muted">
        This server requires a code from an authenticator app at every sign-in. Set it up to continue.
      </p>
      {setup ? (
        <TwoFactorEnrol
          setup={setup}
          busy={busy}
          error={error}
          onConfirm={(code) =>
            void run(async () => {
              const { user, recoveryCodes } = await twoFactorApi.enableWithTicket(ticket, code);
              setDone({ user, codes: recoveryCodes });
            })
          }
        />
      ) : (
        <>
          <FormError message={error} />
          <Button
            className="w-full"
            disabled={busy}
            onClick={() => void run(async () => setSetup(await twoFactorApi.setupWithTicket(ticket)))}
          >
            Start
          </Button>
        </>
      )}
      <button type="button" className="mt-4 text-sm text-muted hover:underline" onClick={onCancel}>
        Cancel
      </button>
    </Card>
  );
}

/** The second step of a sign-in, after a right password answered 202. */
export function SecondFactorStep({
  challenge,
  onSignedIn,
  onCancel,
}: {
  challenge: Challenge;
  onSignedIn: (user: UserDto) => void;
  onCancel: () => void;
}) {
  if (challenge.methods.includes('setup')) return <SetupStep ticket={challenge.ticket} onSignedIn={onSignedIn} onCancel={onCancel} />;
  return <CodeStep ticket={challenge.ticket} methods={challenge.methods} onSignedIn={onSignedIn} onCancel={onCancel} />;
}
