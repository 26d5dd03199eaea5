import { useId, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { Logo } from '../../components/Logo';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { CooldownDialog } from '../account/CooldownDialog';
import { AuthLinks } from './AuthLinks';
import { PasskeySignIn } from './PasskeySignIn';
import { SecondFactorStep } from './SecondFactorStep';
import { SsoSignIn } from './SsoSignIn';
import { HEADINGS, SUBMIT_LABELS } from './auth-modes';
import { useAuthForm } from './useAuthForm';

export function AuthForm({ initialError }: { initialError: string | null }) {
  const form = useAuthForm(initialError);
  const headingId = useId();
  const { mode, fields, busy } = form;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit();
  };

  if (form.secondStep)
    return <SecondFactorStep challenge={form.secondStep} onSignedIn={form.finishSignIn} onCancel={form.cancelSecondStep} />;

  return (
    <div className="flex min-h-dvh items-center justify-center px-4 py-10">
      <form
        noValidate
        onSubmit={onSubmit}
        aria-busy={busy}
        aria-labelledby={headingId}
        className="w-full max-w-[420px] rounded-3xl bg-white px-6 py-9 shadow-sm ring-1 ring-gray-200 sm:px-10"
      >
        <div className="mb-6 flex h-10 justify-center">{busy ? <Spinner className="size-10" label="Working" /> : <Logo />}</div>
        <h1 id={headingId} className="mb-6 text-center text-2xl font-normal text-ink">
          {HEADINGS[mode]}
        </h1>
        <div className="space-y-4">
          <TextField
            label="Email address"
            type="email"
            autoComplete="email"
            value={fields.email}
            onChange={(value) => form.setField('email', value)}
          />
          {mode !== 'reset' && (
            <TextField
              label="Password"
              type="password"
              autoComplete={mode === 'create' ? 'new-password' : 'current-password'}
              value={fields.password}
              onChange={(value) => form.setField('password', value)}
            />
          )}
          {mode === 'create' && (
            <TextField
              label="Verify password"
              type="password"
              autoComplete="new-password"
              value={fields.verifyPassword}
              onChange={(value) => form.setField('verifyPassword', value)}
            />
          )}
        </div>
        <AuthLinks mode={mode} onSwitch={form.switchMode} />
        <Button type="submit" disabled={!form.canSubmit} className="mt-6 w-full">
          {SUBMIT_LABELS[mode]}
        </Button>
        <div className="mt-4 min-h-5">
          <FormError message={form.error} />
        </div>
        {mode === 'login' && <PasskeySignIn />}
        {mode === 'login' && <SsoSignIn />}
      </form>
      {form.cooldownOpen && <CooldownDialog onClose={form.closeCooldown} />}
    </div>
  );
}
