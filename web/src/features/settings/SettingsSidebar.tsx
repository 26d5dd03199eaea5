import { SectionSidebar } from '../../components/SectionSidebar';
import { HistoryIcon, KeyIcon, PeopleIcon, PersonIcon, StorageIcon, TuneIcon } from '../../components/icons';
import { DevicesIcon } from './DevicesSection';
import { PasskeyIcon } from './PasskeysSection';
import { SecurityIcon } from './SecuritySection';

export type SettingsTab = 'account' | 'general' | 'storage' | 'people' | 'app-passwords' | 'security' | 'passkeys' | 'devices' | 'activity';

const TABS = [
  { id: 'account', label: 'Account', icon: PersonIcon },
  { id: 'general', label: 'General', icon: TuneIcon },
  { id: 'storage', label: 'Storage', icon: StorageIcon },
  { id: 'people', label: 'People in photos', icon: PeopleIcon },
  { id: 'app-passwords', label: 'App passwords', icon: KeyIcon },
  { id: 'security', label: 'Security', icon: SecurityIcon },
  { id: 'passkeys', label: 'Passkeys', icon: PasskeyIcon },
  { id: 'devices', label: 'Devices', icon: DevicesIcon },
  { id: 'activity', label: 'Recent activity', icon: HistoryIcon },
] as const;

interface SettingsSidebarProps {
  tab: SettingsTab;
  onSelect: (tab: SettingsTab) => void;
}

/** HOME link plus the Account, General, Storage, People in photos, App passwords, Security, Passkeys, Devices and Recent activity sections. */
export function SettingsSidebar({ tab, onSelect }: SettingsSidebarProps) {
  return <SectionSidebar label="Settings" sections={TABS} current={tab} onSelect={onSelect} />;
}
