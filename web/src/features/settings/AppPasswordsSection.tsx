import type { AppPasswordDto, CreatedAppPasswordDto } from '@nimbus/common';
import { useState, type FormEvent } from 'react';
import { useAppPasswordsQuery, useCreateAppPassword, useRevokeAppPassword, webDavUrl } from '../../api/app-passwords.api';
import { useUserDetailedQuery } from '../../api/user.queries';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { CopyField } from './CopyField';
import { SettingRow } from './SettingRow';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

function NewPasswordDialog({ created, email, onClose }: { created: CreatedAppPasswordDto; email: string; onClose: () => void }) {
  return (
    <Dialog title={`App password for “${created.name}”`} onClose={onClose} actions={<Button onClick={onClose}>Done</Button>}>
      <div className="space-y-3">
        <p>Enter these in your WebDAV client. The password is shown only now: copy it before closing.</p>
        <CopyField label="Password" value={created.password} />
        <CopyField label="WebDAV URL" value={webDavUrl()} />
        <CopyField label="User name" value={email} />
      </div>
    </Dialog>
  );
}

function CreateForm({ onCreated }: { onCreated: (created: CreatedAppPasswordDto) => void }) {
  const [name, setName] = useState('');
  const create = useCreateAppPassword();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || create.isPending) return;
    create.mutate(name.trim(), {
      onSuccess: (created) => {
        setName('');
        onCreated(created);
      },
    });
  };
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-wrap items-end gap-2 py-4">
      <TextField
        label="New app password name"
        placeholder="e.g. Laptop (rclone)"
        maxLength={100}
        value={name}
        onChange={(value) => {
          create.reset();
          setName(value);
        }}
        className="min-w-0 flex-1"
      />
      <Button type="submit" disabled={!name.trim() || create.isPending}>
        Create
      </Button>
      {create.isError && <FormError message={create.error.message || 'Could not create the app password'} />}
    </form>
  );
}

function PasswordRow({ entry, onRevoke }: { entry: AppPasswordDto; onRevoke: () => void }) {
  const lastUse = entry.lastUsedAt ? `Last used ${formatDate(entry.lastUsedAt)}` : 'Never used';
  return (
    <SettingRow title={entry.name} description={`Created ${formatDate(entry.createdAt)} · ${lastUse}`}>
      <Button variant="secondary" aria-label={`Revoke ${entry.name}`} onClick={onRevoke}>
        Revoke
      </Button>
    </SettingRow>
  );
}

/**
 * Passwords for WebDAV clients (Finder, Explorer, rclone, phone apps): one per device, each
 * revocable alone, untouched by password changes and logout-all.
 */
export function AppPasswordsSection() {
  const passwords = useAppPasswordsQuery();
  const user = useUserDetailedQuery();
  const revoke = useRevokeAppPassword();
  const [created, setCreated] = useState<CreatedAppPasswordDto | null>(null);
  const [revoking, setRevoking] = useState<AppPasswordDto | null>(null);
  const email = user.data?.email ?? '';

  return (
    <div>
      <div className="space-y-1 border-b border-gray-100 py-4 text-sm text-muted">
        <p>
          App passwords let WebDAV clients (Finder, Windows Explorer, GNOME Files, rclone, phone apps) open your drive. Give each device its
          own, so you can revoke one without touching the others. Your account password does not work there.
        </p>
        <p>
          WebDAV URL: <span className="font-mono break-all text-ink">{webDavUrl()}</span>
          {email && (
            <>
              {' '}
              · User name: <span className="break-all text-ink">{email}</span>
            </>
          )}
        </p>
      </div>
      <CreateForm onCreated={setCreated} />
      {passwords.isPending && <Spinner className="m-8 size-8" label="Loading app passwords" />}
      {passwords.isError && <FormError message="Could not load your app passwords" />}
      {passwords.data?.length === 0 && <p className="py-4 text-sm text-muted">No app passwords yet.</p>}
      {passwords.data?.map((entry) => (
        <PasswordRow key={entry.id} entry={entry} onRevoke={() => setRevoking(entry)} />
      ))}
      {revoke.isError && <FormError message="Could not revoke the app password" />}
      {created && <NewPasswordDialog created={created} email={email} onClose={() => setCreated(null)} />}
      {revoking && (
        <ConfirmDialog
          title="Revoke app password?"
          text={`“${revoking.name}” will stop working at once. Devices using it must be given a new one.`}
          confirmLabel="Revoke"
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            revoke.mutate(revoking.id);
            setRevoking(null);
          }}
        />
      )}
    </div>
  );
}
