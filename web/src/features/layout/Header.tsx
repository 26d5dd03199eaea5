import { Link } from 'react-router';
import { MenuIcon, SettingsIcon } from '../../components/icons';
import { Logo } from '../../components/Logo';
import { useAppDispatch } from '../../state/hooks';
import { toggleDrawer } from '../../state/drawer.slice';
import { SearchBar } from './SearchBar';

const iconButton = 'flex size-10 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5';

/** Logo, side-menu toggle (small screens, not on settings), search bar and settings gear (wide screens). */
export function Header({ showMenuToggle = true }: { showMenuToggle?: boolean }) {
  const dispatch = useAppDispatch();
  return (
    <header className="flex h-16 shrink-0 items-center gap-2 px-2 sm:gap-4 sm:px-4">
      {showMenuToggle && (
        <button type="button" aria-label="Open menu" className={`${iconButton} md:hidden`} onClick={() => dispatch(toggleDrawer())}>
          <MenuIcon className="size-6" />
        </button>
      )}
      <Link to="/" aria-label="Nimbus home" className="shrink-0 rounded-lg md:w-56">
        <span className="sm:hidden">
          <Logo showName={false} />
        </span>
        <span className="hidden sm:inline">
          <Logo />
        </span>
      </Link>
      <div className="flex min-w-0 flex-1">
        <SearchBar />
      </div>
      <Link to="/settings" aria-label="Settings" title="Settings" className={`${iconButton} hidden md:flex`}>
        <SettingsIcon className="size-6" />
      </Link>
    </header>
  );
}
