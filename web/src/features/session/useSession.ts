import type { UserDto } from '@nimbus/common';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useAppDispatch } from '../../state/hooks';
import { resetMultiSelect, resetSelected } from '../../state/selection.slice';
import { resetUser, setUser } from '../../state/user.slice';
import { forgetLogin, rememberLogin } from './login-flags';

/** Marks this tab signed in (after login, account creation or a restored session). */
export function useSignIn(): (user: UserDto) => void {
  const dispatch = useAppDispatch();
  return useCallback(
    (user: UserDto) => {
      rememberLogin(user._id);
      dispatch(setUser(user));
    },
    [dispatch],
  );
}

/** Forgets the session locally: flags, user state, selection and every cached server answer. */
export function useSignOutLocally(): () => void {
  const dispatch = useAppDispatch();
  const queryClient = useQueryClient();
  return useCallback(() => {
    forgetLogin();
    dispatch(resetUser());
    dispatch(resetSelected());
    dispatch(resetMultiSelect());
    queryClient.clear();
  }, [dispatch, queryClient]);
}
