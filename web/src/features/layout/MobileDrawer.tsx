import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { CloseIcon } from '../../components/icons';
import { Logo } from '../../components/Logo';
import { closeDrawer } from '../../state/drawer.slice';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { SideMenu } from './SideMenu';

/** The side menu on small screens: a panel over the page, closed by the backdrop, Escape or navigating. */
export function MobileDrawer() {
  const open = useAppSelector((state) => state.drawer.drawOpen);
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();

  useEffect(() => {
    dispatch(closeDrawer());
  }, [pathname, dispatch]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && dispatch(closeDrawer());
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, dispatch]);

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40 md:hidden">
      <div className="absolute inset-0 bg-black/40" onClick={() => dispatch(closeDrawer())} data-testid="drawer-backdrop" />
      <aside aria-label="Side menu" className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col bg-surface shadow-2xl">
        <div className="flex h-16 items-center justify-between px-4">
          <Logo />
          <button
            type="button"
            aria-label="Close menu"
            onClick={() => dispatch(closeDrawer())}
            className="flex size-10 items-center justify-center rounded-full text-muted hover:bg-black/5"
          >
            <CloseIcon className="size-6" />
          </button>
        </div>
        <SideMenu />
      </aside>
    </div>
  );
}
