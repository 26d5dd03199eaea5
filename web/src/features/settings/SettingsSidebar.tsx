import { Link } from 'react-router';
import { ArrowBackIcon, HistoryIcon, KeyIcon, PersonIcon, StorageIcon, TuneIcon } from '../../components/icons';

export type SettingsTab = 'account' | 'general' | 'storage' | 'app-passwords' | 'activity';

const TABS = [
  { id: 'account', label: 'Account', icon: PersonIcon },
  { id: 'general', label: 'General', icon: TuneIcon },
  { id: 'storage', label: 'Storage', icon: StorageIcon },
  { id: 'app-passwords', label: 'App passwords', icon: KeyIcon },
  { id: 'activity', label: 'Recent activity', icon: HistoryIcon },
] as const;

interface SettingsSidebarProps {
  tab: SettingsTab;
  onSelect: (tab: SettingsTab) => void;
}

const item = 'flex h-10 items-center gap-3 rounded-full px-4 text-sm font-medium whitespace-nowrap';

/** HOME link plus the Account, General, Storage, App passwords and Recent activity sections; a row of tabs on small screens. */
export function SettingsSidebar({ tab, onSelect }: SettingsSidebarProps) {
  return (
    <nav aria-label="Settings" className="flex gap-1 overflow-x-auto px-3 pb-2 md:w-64 md:shrink-0 md:flex-col md:overflow-visible md:pt-2">
      <Link to="/home" className={`${item} text-primary hover:bg-black/5`}>
        <ArrowBackIcon className="size-5" /> HOME
      </Link>
      {TABS.map(({ id, label, icon: Icon }) => (
        <button
          key={id}
          type="button"
          aria-current={tab === id ? 'page' : undefined}
          onClick={() => onSelect(id)}
          className={`${item} ${tab === id ? 'bg-selected text-[#001d35]' : 'text-ink hover:bg-black/5'}`}
        >
          <Icon className="size-5" /> {label}
        </button>
      ))}
    </nav>
  );
}
