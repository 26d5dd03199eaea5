import { TIMINGS } from '@nimbus/common';
import { useEffect } from 'react';
import { refreshSession } from '../../api/client';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { setLastRefreshed } from '../../state/user.slice';

/** While signed in: rotates the session every 20 minutes and whenever the tab becomes visible. */
export function useSessionRefresh(): void {
  const loggedIn = useAppSelector((state) => state.user.loggedIn);
  const dispatch = useAppDispatch();

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
