import { ACCOUNT_MESSAGES } from '@nimbus/common';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { userApi } from '../../api/user.api';
import { progressToast } from '../notifications/progress-toast';
import type { RedirectState } from './RequireAuth';

const TEXT = {
  one: { pending: ACCOUNT_MESSAGES.loggingOut, done: ACCOUNT_MESSAGES.loggedOut, failed: ACCOUNT_MESSAGES.errorLoggingOut },
  all: { pending: ACCOUNT_MESSAGES.loggingOutAll, done: ACCOUNT_MESSAGES.loggedOutAll, failed: ACCOUNT_MESSAGES.errorLoggingOutAll },
};

interface LogoutOptions {
  /** Sign out locally and go to / even when the server call fails. */
  evenIfFailed?: boolean;
}

/** Logs out this session (or every session) with its toasts, then goes to /. */
export function useLogout(): (scope: 'one' | 'all', options?: LogoutOptions) => Promise<void> {
  const navigate = useNavigate();
  return useCallback(
    async (scope, options = {}) => {
      const text = TEXT[scope];
      const toast = progressToast(text.pending);
      try {
        await (scope === 'all' ? userApi.logoutAll() : userApi.logout());
        toast.success(text.done);
      } catch {
        toast.error(text.failed);
        if (!options.evenIfFailed) return;
      }
      // The authentication screen finishes the logout once it shows, so the protected page being
      // left never sees a signed-out user (and never asks to be returned to).
      void navigate('/', { replace: true, state: { loggedOut: true } satisfies RedirectState });
    },
    [navigate],
  );
}
