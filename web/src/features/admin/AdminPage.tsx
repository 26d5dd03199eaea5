import { useState } from 'react';
import { Link } from 'react-router';
import { CenteredCard } from '../../components/CenteredCard';
import { useAppSelector } from '../../state/hooks';
import { Header } from '../layout/Header';
import { ADMIN_TABS, AdminSidebar, type AdminTab } from './AdminSidebar';
import { InvitationsSection } from './InvitationsSection';
import { OverviewSection } from './OverviewSection';
import { ServerSettingsSection } from './ServerSettingsSection';
import { UsersSection } from './UsersSection';

export const ADMIN_ONLY_MESSAGE = 'Only an administrator can open this page';

const SECTIONS: Record<AdminTab, () => React.JSX.Element> = {
  users: UsersSection,
  invitations: InvitationsSection,
  settings: ServerSettingsSection,
  overview: OverviewSection,
};

/** `/admin`: accounts, invitations, server settings and an overview, for administrators only. */
export function AdminPage() {
  const isAdmin = useAppSelector((state) => state.user.user?.role === 'admin');
  const [tab, setTab] = useState<AdminTab>('users');
  if (!isAdmin) {
    return (
      <CenteredCard>
        <h1 className="text-center text-xl font-normal text-ink">{ADMIN_ONLY_MESSAGE}</h1>
        <Link to="/home" className="mt-6 inline-block text-sm font-medium text-primary hover:underline">
          Back to Home
        </Link>
      </CenteredCard>
    );
  }
  const Section = SECTIONS[tab];
  return (
    <div className="flex h-dvh flex-col bg-surface">
      <Header showMenuToggle={false} />
      <div className="flex min-h-0 flex-1 flex-col md:flex-row">
        <AdminSidebar tab={tab} onSelect={setTab} />
        <main className="min-w-0 flex-1 overflow-y-auto bg-white px-4 py-4 sm:mx-2 sm:mb-2 sm:rounded-2xl sm:px-8 md:mr-4 md:mb-4 md:ml-0">
          <div className="mx-auto max-w-5xl">
            <h1 className="mb-2 text-2xl font-normal text-ink">{ADMIN_TABS.find((t) => t.id === tab)!.label}</h1>
            <Section />
          </div>
        </main>
      </div>
    </div>
  );
}
