import { Link } from 'react-router';
import { ArrowBackIcon, CloudIcon, MailIcon, PersonIcon, TuneIcon } from '../../components/icons';

export type AdminTab = 'users' | 'invitations' | 'settings' | 'overview';

export const ADMIN_TABS = [
  { id: 'users', label: 'Users', icon: PersonIcon },
  { id: 'invitations', label: 'Invitations', icon: MailIcon },
  { id: 'settings', label: 'Server settings', icon: TuneIcon },
  { id: 'overview', label: 'Overview', icon: CloudIcon },
] as const;

const item = 'flex h-10 items-center gap-3 rounded-full px-4 text-sm font-medium whitespace-nowrap';

/** HOME link plus the admin area's sections; a row of tabs on small screens (as Settings' sidebar). */
export function AdminSidebar({ tab, onSelect }: { tab: AdminTab; onSelect: (tab: AdminTab) => void }) {
  return (
    <nav aria-label="Admin" className="flex gap-1 overflow-x-auto px-3 pb-2 md:w-64 md:shrink-0 md:flex-col md:overflow-visible md:pt-2">
      <Link to="/home" className={`${item} text-primary hover:bg-black/5`}>
        <ArrowBackIcon className="size-5" /> HOME
      </Link>
      {ADMIN_TABS.map(({ id, label, icon: Icon }) => (
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
