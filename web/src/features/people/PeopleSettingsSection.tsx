import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { SettingRow } from '../settings/SettingRow';
import { toast } from '../notifications/toast';
import { PEOPLE_MESSAGES, scanProgress } from './people-messages';
import { usePeopleSettings, useUpdatePeopleSettings } from './people.queries';

interface SwitchProps {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}

function Switch({ label, checked, disabled, onChange }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-label={label}
      aria-checked={checked}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={`relative h-6 w-11 shrink-0 rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:opacity-60 ${checked ? 'bg-primary' : 'bg-gray-300'}`}
    >
      <span
        className={`absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-5' : ''}`}
      />
    </button>
  );
}

/** Settings → People in photos: the switch, how far the photos have been looked at, and the warning before turning it off. */
export function PeopleSettingsSection() {
  const settings = usePeopleSettings();
  const update = useUpdatePeopleSettings();
  const [confirming, setConfirming] = useState(false);

  if (settings.isPending) return <Spinner className="m-8 size-8" label="Loading the people setting" />;
  if (settings.isError) return <FormError message={PEOPLE_MESSAGES.settingLoadError} />;

  const { enabled, scannedPhotos, pendingPhotos } = settings.data;
  const change = (next: boolean) => update.mutate(next, { onError: () => toast.error(PEOPLE_MESSAGES.settingError) });
  return (
    <div>
      <SettingRow
        title={PEOPLE_MESSAGES.settingTitle}
        description={
          <>
            <p className="break-normal">{PEOPLE_MESSAGES.settingText}</p>
            {enabled && <p className="mt-1 text-ink">{scanProgress(scannedPhotos, pendingPhotos)}</p>}
          </>
        }
      >
        <Switch
          label={PEOPLE_MESSAGES.settingTitle}
          checked={enabled}
          disabled={update.isPending}
          onChange={(next) => (next ? change(true) : setConfirming(true))}
        />
      </SettingRow>
      {confirming && (
        <ConfirmDialog
          title={PEOPLE_MESSAGES.turnOffTitle}
          text={PEOPLE_MESSAGES.turnOffText}
          confirmLabel={PEOPLE_MESSAGES.turnOff}
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            change(false);
          }}
        />
      )}
    </div>
  );
}
