import { Navigate, Outlet, useLocation } from 'react-router';
import { useAppSelector } from '../../state/hooks';

/** Location state of /: where a protected page sent the visitor from, or that they just logged out. */
export interface RedirectState {
  from?: string;
  loggedOut?: boolean;
}

/** Protected routes: signed-out visitors go to / and come back here after signing in. */
export function RequireAuth() {
  const loggedIn = useAppSelector((state) => state.user.loggedIn);
  const location = useLocation();
  if (!loggedIn) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/" replace state={{ from } satisfies RedirectState} />;
  }
  return <Outlet />;
}

export function useJustLoggedOut(): boolean {
  return (useLocation().state as RedirectState | null)?.loggedOut === true;
}

/** The protected location a visitor was sent away from, if any. */
export function useRememberedLocation(): string | null {
  const state = useLocation().state as RedirectState | null;
  const from = state?.from;
  return typeof from === 'string' && from.startsWith('/') && from !== '/' ? from : null;
}
