import { Outlet, useNavigation } from 'react-router';
import { useSessionRefresh } from '../features/session/useSessionRefresh';

/** Above every page: keeps the session fresh and shows a thin bar while the next page's code loads. */
export function RootLayout() {
  useSessionRefresh();
  const navigation = useNavigation();
  return (
    <>
      {navigation.state === 'loading' && (
        <div role="progressbar" aria-label="Loading page" className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-primary/20">
          <div className="h-full w-2/5 animate-[nimbus-progress_1s_ease-in-out_infinite] bg-primary" />
        </div>
      )}
      <Outlet />
    </>
  );
}
