import type { PasskeyDto } from '@nimbus/common';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/api-error';
import { browserHasPasskeys, useAddPasskey, usePasskeysQuery, useRemovePasskey, useRenamePasskey } from '../../api/passkeys.api';
import { useTwoFactorStatus } from '../../api/two-factor.api';
import { useUserDetailedQuery } from '../../api/user.queries';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { icon } from '../../components/icons';
import { SettingRow } from './SettingRow';

/** Material's "passkey" glyph: a person and a key. */
export const PasskeyIcon = icon(
  'M3 20v-2.35c0-.63.31-1.2.81-1.55C5.15 15.16 7.24 14.5 10 14.5c.34 0 .67 0 1 .03V20H3zm7-7c-2.2 0-4-1.8-4-4s1.8-4 4-4 4 1.8 4 4-1.8 4-4 4zm8.5 2.5V21l-1.5 1.5-2-2v-5c-1.2-.5-2-1.7-2-3 0-1.9 1.6-3.5 3.5-3.5S20 10.6 20 12.5c0 1.3-.8 2.5-2 3zm-1.5-3.5c.55 0 1-.45 1-1s-.45-1-1-1-1 .45-1 1 .45 1 1 1z',
);

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** The server's refusals of the proof asked before adding, in words. */
const PROOF_ERRORS: Partial<Record<string, string>> = {
  INVALID_CREDENTIALS: 'That password is not right',
  INVALID_CODE: 'That code is not right, or was already used',
  LOGIN_THROTTLED: 'Too many wrong tries; wait a few minutes and try again',
  VALIDATION_FAILED: 'Enter your current password',
};

/** Why adding failed, in words: the browser's own refusals (cancelled, already registered) are not the server's. */
function addErrorMessage(error: Error): string {
  if (error instanceof ApiError) {
    if (error.code === 'CONFLICT') return error.message;
    return PROOF_ERRORS[error.code] ?? 'The passkey could not be added';
  }
  if (error.name === 'NotAllowedError' || error.name === 'AbortError') return 'The passkey was not created (cancelled or timed out)';
  if (error.name === 'InvalidStateError') return 'This device already holds a passkey for your account';
  return 'The passkey could not be added';
}

/**
 * Adding asks again for the password (or, with two-factor on, a code instead): a session alone,
 * perhaps signed in with a stolen password, must not add a passkey that outlives a password change.
 * An account without a password (single sign-on) is asked nothing.
 */
function AddForm() {
  const [name, setName] = useState('');
  const [secret, setSecret] = useState('');
  const [useCode, setUseCode] = useState(false);
  const add = useAddPasskey();
  const twoFactorOn = useTwoFactorStatus().data?.enabled === true;
  const hasPassword = useUserDetailedQuery().data?.hasPassword !== false;
  const byCode = twoFactorOn && (useCode || !hasPassword);
  const asksSecret = hasPassword || byCode;
  const ready = name.trim() !== '' && (!asksSecret || secret !== '');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || add.isPending) return;
    const proof = !asksSecret ? {} : byCode ? { code: secret.replace(/\s/g, '') } : { password: secret };
    add.mutate(
      { name: name.trim(), proof },
      {
        onSuccess: () => {
          setName('');
          setSecret('');
        },
      },
    );
  };
  const edited = (set: (value: string) => void) => (value: string) => {
    add.reset();
    set(value);
  };
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-wrap items-end gap-2 py-4">
      <TextField
        label="New passkey name"
        placeholder="e.g. Laptop, Phone, YubiKey"
        maxLength={100}
        value={name}
        onChange={edited(setName)}
        className="min-w-0 flex-1"
      />
      {asksSecret &&
        (byCode ? (
          <TextField
            label="Two-factor code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={16}
            value={secret}
            onChange={edited(setSecret)}
            className="min-w-0 flex-1"
          />
        ) : (
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={secret}
            onChange={edited(setSecret)}
            className="min-w-0 flex-1"
          />
        ))}
      <Button type="submit" disabled={!ready || add.isPending}>
        Add passkey
      </Button>
      {twoFactorOn && hasPassword && (
        <Button
          variant="secondary"
          onClick={() => {
            setUseCode(!useCode);
            setSecret('');
            add.reset();
          }}
        >
          {useCode ? 'Use your password instead' : 'Use a two-factor code instead'}
        </Button>
      )}
      {add.isError && <FormError message={addErrorMessage(add.error)} />}
    </form>
  );
}

function RenameDialog({ passkey, onClose }: { passkey: PasskeyDto; onClose: () => void }) {
  const [name, setName] = useState(passkey.name);
  const rename = useRenamePasskey();
  const save = () => {
    if (!name.trim() || rename.isPending) return;
    rename.mutate({ id: passkey.id, name: name.trim() }, { onSuccess: onClose });
  };
  return (
    <Dialog
      title={`Rename “${passkey.name}”`}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} disabled={!name.trim() || rename.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <TextField label="Passkey name" maxLength={100} value={name} onChange={setName} autoFocus />
        {rename.isError && <FormError message="Could not rename the passkey" />}
      </form>
    </Dialog>
  );
}

function PasskeyRow({ passkey, onRename, onRemove }: { passkey: PasskeyDto; onRename: () => void; onRemove: () => void }) {
  const lastUse = passkey.lastUsedAt ? `Last used ${formatDate(passkey.lastUsedAt)}` : 'Never used';
  return (
    <SettingRow title={passkey.name} description={`Added ${formatDate(passkey.createdAt)} · ${lastUse}`}>
      <Button variant="secondary" aria-label={`Rename ${passkey.name}`} onClick={onRename}>
        Rename
      </Button>
      <Button variant="secondary" aria-label={`Remove ${passkey.name}`} onClick={onRemove}>
        Remove
      </Button>
    </SettingRow>
  );
}

/**
 * Passkeys: sign in with the device's lock (fingerprint, face, PIN) or a security key instead of
 * the password, or use one as the second step after it. Named, listed with their last use, removable.
 */
export function PasskeysSection() {
  const passkeys = usePasskeysQuery();
  const remove = useRemovePasskey();
  const [renaming, setRenaming] = useState<PasskeyDto | null>(null);
  const [removing, setRemoving] = useState<PasskeyDto | null>(null);
  const supported = browserHasPasskeys();

  return (
    <div>
      <div className="space-y-1 border-b border-gray-100 py-4 text-sm text-muted">
        <p>
          A passkey signs you in with your device’s screen lock or a security key, without your password. It cannot be phished: it works
          only on this site. Add one on each device you use.
        </p>
      </div>
      {supported ? <AddForm /> : <p className="py-4 text-sm text-muted">This browser cannot make passkeys.</p>}
      {passkeys.isPending && <Spinner className="m-8 size-8" label="Loading passkeys" />}
      {passkeys.isError && <FormError message="Could not load your passkeys" />}
      {passkeys.data?.length === 0 && <p className="py-4 text-sm text-muted">No passkeys yet.</p>}
      {passkeys.data?.map((passkey) => (
        <PasskeyRow key={passkey.id} passkey={passkey} onRename={() => setRenaming(passkey)} onRemove={() => setRemoving(passkey)} />
      ))}
      {remove.isError && <FormError message="Could not remove the passkey" />}
      {renaming && <RenameDialog passkey={renaming} onClose={() => setRenaming(null)} />}
      {removing && (
        <ConfirmDialog
          title="Remove passkey?"
          text={`“${removing.name}” will no longer sign you in. Remove it from the device too, in its passkey settings.`}
          confirmLabel="Remove"
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            remove.mutate(removing.id);
            setRemoving(null);
          }}
        />
      )}
    </div>
  );
}
