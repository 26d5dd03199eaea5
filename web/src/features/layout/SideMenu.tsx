import type { ComponentType } from 'react';
import { NavLink, useLocation } from 'react-router';
import { AdminIcon, HomeIcon, PeopleIcon, PhotoIcon, SettingsIcon, ShareIcon, TrashIcon } from '../../components/icons';
import { useAppSelector } from '../../state/hooks';
import { useOpenFolderAccess } from '../item-shares/useFolderAccess';
import { AddNewMenu } from './AddNewMenu';
import { sectionOf, type Section } from './sections';

interface ItemProps {
  to: string;
  label: string;
  icon: ComponentType<{ className?: string }>;
  active: boolean;
  danger?: boolean;
  className?: string;
}

function MenuItem({ to, label, icon: Icon, active, danger, className = '' }: ItemProps) {
  const colors = danger ? 'text-red-600' : active ? 'text-[#001d35]' : 'text-ink';
  return (
    <NavLink
      to={to}
      aria-current={active ? 'page' : undefined}
      className={`flex h-10 items-center gap-4 rounded-full px-4 text-sm font-medium ${colors} ${active ? (danger ? 'bg-red-100' : 'bg-selected') : 'hover:bg-black/5'} ${className}`}
    >
      <Icon className="size-5" />
      {label}
    </NavLink>
  );
}

/** ADD NEW, Home, Media, Shared, Settings (small screens only), Trash in red, and Admin for administrators. */
export function SideMenu() {
  const { pathname } = useLocation();
  const isAdmin = useAppSelector((state) => state.user.user?.role === 'admin');
  // A folder reached through a share belongs under "Shared with me", not Home.
  const inShare = useOpenFolderAccess().role !== 'owner';
  const section: Section | 'settings' | 'shared' | 'shared-with-me' =
    pathname === '/settings'
      ? 'settings'
      : pathname === '/shared'
        ? 'shared'
        : pathname === '/shared-with-me' || inShare
          ? 'shared-with-me'
          : sectionOf(pathname);
  return (
    <nav aria-label="Main menu" className="flex flex-col gap-4 px-3 pt-2 pb-4">
      <div className="px-1">
        <AddNewMenu />
      </div>
      <div className="flex flex-col gap-0.5">
        <MenuItem to="/home" label="Home" icon={HomeIcon} active={section === 'home'} />
        <MenuItem to="/media" label="Media" icon={PhotoIcon} active={section === 'media'} />
        <MenuItem to="/shared" label="Shared" icon={ShareIcon} active={section === 'shared'} />
        <MenuItem to="/shared-with-me" label="Shared with me" icon={PeopleIcon} active={section === 'shared-with-me'} />
        <MenuItem to="/settings" label="Settings" icon={SettingsIcon} active={section === 'settings'} className="md:hidden" />
        <MenuItem to="/trash" label="Trash" icon={TrashIcon} active={section === 'trash'} danger />
        {isAdmin && <MenuItem to="/admin" label="Admin" icon={AdminIcon} active={pathname === '/admin'} />}
      </div>
    </nav>
  );
}
