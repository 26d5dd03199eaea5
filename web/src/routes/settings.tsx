import { SettingsPage } from '../features/settings/SettingsPage';

export function Component() {
  return <SettingsPage />;
}
