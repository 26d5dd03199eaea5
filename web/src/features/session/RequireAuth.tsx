import { Navigate, Outlet, useLocation } from 'react-router';
import { useAppSelector } from '../../state/hooks';
import { wasSignedOutOnPurpose } from './useSession';

export interface RedirectState {
  from?: string;
}

/** Protected routes: signed-out visitors go to / and come back here after signing in. */
export function RequireAuth() {
  const loggedIn = useAppSelector((state) => state.user.loggedIn);
  const location = useLocation();
  if (!loggedIn) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    const state: RedirectState | null = wasSignedOutOnPurpose() ? null : { from };
    return <Navigate to="/" replace state={state} />;
  }
  return <Outlet />;
}

/** The protected location a visitor was sent away from, if any. */
export function useRememberedLocation(): string | null {
  const state = useLocation().state as RedirectState | null;
  const from = state?.from;
  return typeof from === 'string' && from.startsWith('/') && from !== '/' ? from : null;
}
