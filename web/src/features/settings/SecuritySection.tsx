import type { TwoFactorSetupDto } from '@nimbus/common';
import { useState, type FormEvent } from 'react';
import { twoFactorApi, useTwoFactorChange, useTwoFactorStatus } from '../../api/two-factor.api';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { icon } from '../../components/icons';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { RecoveryCodesList } from '../two-factor/RecoveryCodesList';
import { SettingRow } from './SettingRow';
import { TwoFactorEnrol } from '../two-factor/TwoFactorEnrol';
import { codeErrorMessage } from '../two-factor/two-factor-errors';

/** A padlock, for the Security tab. */
export const SecurityIcon = icon(
  'M18 8h-1V6c0-2.76-2.24-5-5-5S7 3.24 7 6v2H6c-1.1 0-2 .9-2 2v10c0 1.1.9 2 2 2h12c1.1 0 2-.9 2-2V10c0-1.1-.9-2-2-2zm-6 9c-1.1 0-2-.9-2-2s.9-2 2-2 2 .9 2 2-.9 2-2 2zm3.1-9H8.9V6c0-1.71 1.39-3.1 3.1-3.1 1.71 0 3.1 1.39 3.1 3.1v2z',
);

/** A dialog asking for a code before a change (new recovery codes, turning off). */
function CodeDialog({
  title,
  label,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  title: string;
  label: string;
  confirmLabel: string;
  busy: boolean;
  error: string | null;
  onConfirm: (code: string) => void;
  onClose: () => void;
}) {
  const [code, setCode] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() && !busy) onConfirm(code.trim());
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="two-factor-code-form" disabled={!code.trim() || busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form id="two-factor-code-form" noValidate onSubmit={onSubmit} className="space-y-3">
        <TextField label={label} autoComplete="one-time-code" maxLength={32} value={code} onChange={setCode} autoFocus />
        <FormError message={error} />
      </form>
    </Dialog>
  );
}

/** Settings → Security: two-factor sign-in with an authenticator app, and its recovery codes. */
export function SecuritySection() {
  const status = useTwoFactorStatus();
  const setup = useTwoFactorChange(twoFactorApi.setup);
  const enable = useTwoFactorChange(twoFactorApi.enable);
  const renew = useTwoFactorChange(twoFactorApi.renewRecoveryCodes);
  const disable = useTwoFactorChange(twoFactorApi.disable);
  const [pending, setPending] = useState<TwoFactorSetupDto | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [asking, setAsking] = useState<'renew' | 'disable' | null>(null);

  if (status.isPending) return <Spinner className="m-8 size-8" label="Loading two-factor sign-in" />;
  if (status.isError) return <FormError message="Could not load your two-factor settings" />;
  const { enabled, recoveryCodesLeft, required } = status.data;

  return (
    <div>
      <p className="border-b border-gray-100 py-4 text-sm text-muted">
        With two-factor sign-in, signing in asks for a code from an authenticator app on your phone after your password, so a stolen
        password alone does not open your account. WebDAV clients keep using their app passwords.
      </p>
      <SettingRow
        title="Two-factor sign-in"
        description={
          enabled
            ? `On · ${recoveryCodesLeft} recovery code${recoveryCodesLeft === 1 ? '' : 's'} left${required ? ' · Required on this server' : ''}`
            : required
              ? 'Off · Required on this server'
              : 'Off'
        }
      >
        {!enabled && !pending && (
          <Button onClick={() => setup.mutate(undefined, { onSuccess: setPending })} disabled={setup.isPending}>
            Turn on
          </Button>
        )}
        {enabled && (
          <>
            <Button variant="secondary" onClick={() => setAsking('renew')}>
              New recovery codes
            </Button>
            {!required && (
              <Button variant="secondary" onClick={() => setAsking('disable')}>
                Turn off
              </Button>
            )}
          </>
        )}
      </SettingRow>
      {setup.isError && <FormError message={codeErrorMessage(setup.error)} />}
      {pending && !enabled && (
        <div className="py-4">
          <TwoFactorEnrol
            setup={pending}
            busy={enable.isPending}
            error={enable.isError ? codeErrorMessage(enable.error) : null}
            onConfirm={(code) =>
              enable.mutate(code, {
                onSuccess: (recoveryCodes) => {
                  setPending(null);
                  setCodes(recoveryCodes);
                },
              })
            }
          />
        </div>
      )}
      {codes && (
        <Dialog title="Your recovery codes" onClose={() => setCodes(null)} actions={<Button onClick={() => setCodes(null)}>Done</Button>}>
          <RecoveryCodesList codes={codes} />
        </Dialog>
      )}
      {asking === 'renew' && (
        <CodeDialog
          title="Make new recovery codes?"
          label="Enter the 6-digit code from your authenticator app"
          confirmLabel="Make new codes"
          busy={renew.isPending}
          error={renew.isError ? codeErrorMessage(renew.error) : null}
          onClose={() => {
            renew.reset();
            setAsking(null);
          }}
          onConfirm={(code) =>
            renew.mutate(code, {
              onSuccess: (recoveryCodes) => {
                setAsking(null);
                setCodes(recoveryCodes);
              },
            })
          }
        />
      )}
      {asking === 'disable' && (
        <CodeDialog
          title="Turn off two-factor sign-in?"
          label="Enter a code from your authenticator app, or a recovery code"
          confirmLabel="Turn off"
          busy={disable.isPending}
          error={disable.isError ? codeErrorMessage(disable.error) : null}
          onClose={() => {
            disable.reset();
            setAsking(null);
          }}
          onConfirm={(code) => disable.mutate(code, { onSuccess: () => setAsking(null) })}
        />
      )}
    </div>
  );
}
