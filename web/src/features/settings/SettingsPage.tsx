import { useState } from 'react';
import { useLocation } from 'react-router';
import { PeopleSettingsSection } from '../people/PeopleSettingsSection';
import { Header } from '../layout/Header';
import { AccountSection } from './AccountSection';
import { AppPasswordsSection } from './AppPasswordsSection';
import { DevicesSection } from './DevicesSection';
import { GeneralSection } from './GeneralSection';
import { PasskeysSection } from './PasskeysSection';
import { RecentActivitySection } from './RecentActivitySection';
import { SecuritySection } from './SecuritySection';
import { SettingsSidebar, type SettingsTab } from './SettingsSidebar';
import { StorageSection } from './StorageSection';

const TITLES: Record<SettingsTab, string> = {
  account: 'Account',
  general: 'General',
  storage: 'Storage',
  people: 'People in photos',
  'app-passwords': 'App passwords',
  security: 'Security',
  passkeys: 'Passkeys',
  devices: 'Devices',
  activity: 'Recent activity',
};

/** A link may open settings at one section, e.g. `<Link to="/settings" state={{ tab: 'people' }}>`. */
function useInitialTab(): SettingsTab {
  const state: unknown = useLocation().state;
  const tab = (state as { tab?: unknown } | null)?.tab;
  return typeof tab === 'string' && Object.hasOwn(TITLES, tab) ? (tab as SettingsTab) : 'account';
}

export function SettingsPage() {
  const [tab, setTab] = useState<SettingsTab>(useInitialTab());
  return (
    <div className="flex h-dvh flex-col bg-surface">
      <Header showMenuToggle={false} />
      <div className="flex min-h-0 flex-1 flex-col md:flex-row">
        <SettingsSidebar tab={tab} onSelect={setTab} />
        <main className="min-w-0 flex-1 overflow-y-auto bg-white px-4 py-4 sm:mx-2 sm:mb-2 sm:rounded-2xl sm:px-8 md:mr-4 md:mb-4 md:ml-0">
          <div className="mx-auto max-w-3xl">
            <h1 className="mb-2 text-2xl font-normal text-ink">{TITLES[tab]}</h1>
            {tab === 'account' && <AccountSection />}
            {tab === 'general' && <GeneralSection />}
            {tab === 'storage' && <StorageSection />}
            {tab === 'people' && <PeopleSettingsSection />}
            {tab === 'app-passwords' && <AppPasswordsSection />}
            {tab === 'security' && <SecuritySection />}
            {tab === 'passkeys' && <PasskeysSection />}
            {tab === 'devices' && <DevicesSection />}
            {tab === 'activity' && <RecentActivitySection />}
          </div>
        </main>
      </div>
    </div>
  );
}
