import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { loadDeferredModules } from '../../components/lazy-module';
import { BrowserHost } from '../browser/BrowserHost';
import { DetailPanel } from '../browser/DetailPanel';
import { PopupHost } from '../popups/PopupHost';
import { UploadDropZone } from '../upload/UploadDropZone';
import { Header } from './Header';
import { MobileDrawer } from './MobileDrawer';
import { SideMenu } from './SideMenu';

/** The frame of every file-browser page: header, side menu and the content area. */
export function MainLayout() {
  // Menus, bars and dropdowns load apart from the page: fetch them once it is on screen, before anyone opens one.
  useEffect(() => {
    void loadDeferredModules();
  }, []);
  return (
    <div className="flex h-dvh flex-col bg-surface">
      <Header />
      <div className="flex min-h-0 flex-1">
        <aside aria-label="Side menu" className="hidden w-64 shrink-0 overflow-y-auto md:block">
          <SideMenu />
        </aside>
        <MobileDrawer />
        <main className="min-w-0 flex-1 overflow-y-auto bg-white sm:mx-2 sm:mb-2 sm:rounded-2xl md:mr-4 md:mb-4 md:ml-0">
          <UploadDropZone>
            <Outlet />
          </UploadDropZone>
        </main>
        <DetailPanel />
      </div>
      <PopupHost />
      <BrowserHost />
    </div>
  );
}
