import { TIMINGS } from '@nimbus/common';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onSessionExpired, refreshSession } from '../../api/client';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { resetUser, setLastRefreshed } from '../../state/user.slice';

/**
 * While signed in: rotates the session every 20 minutes and whenever the tab becomes visible.
 * When the server refuses a refresh the session is over: the tab signs out, and the protected page
 * sends the user to / (which says "Login Expired") remembering where they were.
 */
export function useSessionRefresh(): void {
  const loggedIn = useAppSelector((state) => state.user.loggedIn);
  const dispatch = useAppDispatch();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!loggedIn) return;
    return onSessionExpired(() => {
      dispatch(resetUser());
      queryClient.clear();
    });
  }, [loggedIn, dispatch, queryClient]);

  useEffect(() => {
    if (!loggedIn) return;
    const refresh = () => {
      refreshSession().then(
        () => dispatch(setLastRefreshed(Date.now())),
        () => undefined,
      );
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    const timer = setInterval(refresh, TIMINGS.tokenRefreshIntervalMs);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [loggedIn, dispatch]);
}
