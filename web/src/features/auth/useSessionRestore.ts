import { AUTH_MESSAGES, type UserDto } from '@nimbus/common';
import { useEffect, useState } from 'react';
import { userApi } from '../../api/user.api';
import { forgetPreviousLogin, hasPreviouslyLoggedIn } from '../session/login-flags';

export interface SessionRestore {
  /** True while a session the flag promised is being restored: the page shows a full-page spinner. */
  showSpinner: boolean;
  /** "Login Expired" when the flag was set and the session could not be restored. */
  message: string | null;
}

/** Session restore: tries the cookies' session once on load; the previous-login flag decides spinner and message. */
export function useSessionRestore(enabled: boolean, onRestored: (user: UserDto) => void): SessionRestore {
  const [hadSession] = useState(hasPreviouslyLoggedIn);
  const [state, setState] = useState<SessionRestore>({ showSpinner: enabled && hadSession, message: null });

  useEffect(() => {
    if (!enabled) return;
    let active = true;
    userApi.getUser().then(
      (user) => {
        if (active) onRestored(user);
      },
      () => {
        if (!active) return;
        if (hadSession) forgetPreviousLogin();
        setState({ showSpinner: false, message: hadSession ? AUTH_MESSAGES.loginExpired : null });
      },
    );
    return () => {
      active = false;
    };
    // Runs once per visit of the page; later renders must not restart it.
  }, []);

  return state;
}
