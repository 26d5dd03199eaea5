import { SectionSidebar } from '../../components/SectionSidebar';
import { CloudIcon, MailIcon, PersonIcon, TuneIcon } from '../../components/icons';

export type AdminTab = 'users' | 'invitations' | 'settings' | 'overview';

export const ADMIN_TABS = [
  { id: 'users', label: 'Users', icon: PersonIcon },
  { id: 'invitations', label: 'Invitations', icon: MailIcon },
  { id: 'settings', label: 'Server settings', icon: TuneIcon },
  { id: 'overview', label: 'Overview', icon: CloudIcon },
] as const;

/** HOME link plus the admin area's sections. */
export function AdminSidebar({ tab, onSelect }: { tab: AdminTab; onSelect: (tab: AdminTab) => void }) {
  return <SectionSidebar label="Admin" sections={ADMIN_TABS} current={tab} onSelect={onSelect} />;
}
