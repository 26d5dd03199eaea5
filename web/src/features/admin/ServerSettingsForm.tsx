import { ADMIN_LIMITS, type ServerSettingsDto, type SignupMode, type UpdateServerSettingsBody } from '@nimbus/common';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { SettingRow } from '../settings/SettingRow';
import { QuotaInput } from './QuotaInput';
import { quotaBytesOf, quotaFieldsOf } from './quota-size';

const SIGNUP_LABELS: Record<SignupMode, string> = {
  open: 'Open to anyone',
  invite: 'By invitation only',
  closed: 'Closed',
};

const control =
  'h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/20';

interface ServerSettingsFormProps {
  settings: ServerSettingsDto;
  busy: boolean;
  error: string | null;
  onSave: (body: UpdateServerSettingsBody) => void;
}

/** The runtime settings of the server, edited together and saved with one button. */
export function ServerSettingsForm({ settings, busy, error, onSave }: ServerSettingsFormProps) {
  const ids = { signup: useId(), retention: useId(), invite: useId(), twoFactor: useId() };
  const [signup, setSignup] = useState(settings.signup);
  const [hasQuota, setHasQuota] = useState(settings.defaultQuotaBytes !== null);
  const [quota, setQuota] = useState(quotaFieldsOf(settings.defaultQuotaBytes));
  const [retention, setRetention] = useState(String(settings.trashRetentionDays));
  const [usersMayInvite, setUsersMayInvite] = useState(settings.usersMayInvite);
  const [requireTwoFactor, setRequireTwoFactor] = useState(settings.requireTwoFactor ?? false);

  const quotaBytes = hasQuota ? quotaBytesOf(quota.amount, quota.unit) : null;
  const retentionDays = Number(retention);
  const retentionValid = /^\d+$/.test(retention.trim()) && retentionDays <= ADMIN_LIMITS.maxTrashRetentionDays;
  const invalid =
    hasQuota && quotaBytes === null
      ? 'Enter a default quota greater than zero, or choose no quota.'
      : !retentionValid
        ? `Trash retention is a whole number of days from 0 to ${ADMIN_LIMITS.maxTrashRetentionDays}.`
        : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (invalid || busy) return;
    onSave({ signup, defaultQuotaBytes: quotaBytes, trashRetentionDays: retentionDays, usersMayInvite, requireTwoFactor });
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Server settings">
      <SettingRow title="Sign-up" description="Who may create an account on this server.">
        <label htmlFor={ids.signup} className="sr-only">
          Sign-up
        </label>
        <select id={ids.signup} value={signup} onChange={(event) => setSignup(event.target.value as SignupMode)} className={control}>
          {Object.entries(SIGNUP_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </SettingRow>
      <SettingRow title="Default quota" description="For accounts without a quota of their own.">
        <label className="flex items-center gap-2 text-sm text-ink">
          <input type="checkbox" checked={!hasQuota} onChange={(event) => setHasQuota(!event.target.checked)} />
          No quota
        </label>
        <QuotaInput
          label="Default quota"
          amount={quota.amount}
          unit={quota.unit}
          disabled={!hasQuota}
          onChange={(amount, unit) => setQuota({ amount, unit })}
        />
      </SettingRow>
      <SettingRow title="Trash retention" description="Days before files in the trash are deleted for good (0: never).">
        <label htmlFor={ids.retention} className="sr-only">
          Trash retention days
        </label>
        <input
          id={ids.retention}
          inputMode="numeric"
          value={retention}
          onChange={(event) => setRetention(event.target.value)}
          className={`${control} w-24`}
        />
      </SettingRow>
      <SettingRow title="Members may invite people" description="Let accounts that are not administrators send invitations.">
        <label htmlFor={ids.invite} className="sr-only">
          Members may invite people
        </label>
        <input id={ids.invite} type="checkbox" checked={usersMayInvite} onChange={(event) => setUsersMayInvite(event.target.checked)} />
      </SettingRow>
      <SettingRow
        title="Require two-factor sign-in"
        description="Every account signs in with a code from an authenticator app. One without sets it up at its next sign-in, from a browser it signed in with before."
      >
        <label htmlFor={ids.twoFactor} className="sr-only">
          Require two-factor sign-in
        </label>
        <input
          id={ids.twoFactor}
          type="checkbox"
          checked={requireTwoFactor}
          onChange={(event) => setRequireTwoFactor(event.target.checked)}
        />
      </SettingRow>
      <div className="flex flex-wrap items-center justify-end gap-4 py-4">
        <FormError message={invalid ?? error} />
        <Button type="submit" disabled={!!invalid || busy}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
