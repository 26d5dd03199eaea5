import { useServerSettingsQuery, useUpdateServerSettings } from '../../api/admin.api';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { toast } from '../notifications/toast';
import { adminErrorMessage } from './admin-errors';
import { ServerSettingsForm } from './ServerSettingsForm';

export const SETTINGS_SAVED = 'Server settings saved';

export function ServerSettingsSection() {
  const settings = useServerSettingsQuery();
  const update = useUpdateServerSettings();
  if (settings.isPending) return <Spinner className="m-8 size-8" label="Loading server settings" />;
  if (settings.isError) return <FormError message={adminErrorMessage(settings.error, 'Could not load the server settings.')} />;
  return (
    <ServerSettingsForm
      settings={settings.data}
      busy={update.isPending}
      error={update.isError ? adminErrorMessage(update.error, 'The settings could not be saved.') : null}
      onSave={(body) => update.mutate(body, { onSuccess: () => toast.success(SETTINGS_SAVED) })}
    />
  );
}
