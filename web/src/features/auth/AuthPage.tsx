import type { UserDto } from '@nimbus/common';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { FullPageSpinner } from '../../components/Spinner';
import { useAppSelector } from '../../state/hooks';
import { useRememberedLocation } from '../session/RequireAuth';
import { useSignIn } from '../session/useSession';
import { AuthForm } from './AuthForm';
import { useSessionRestore } from './useSessionRestore';

/** The landing / authentication screen at /. */
export function AuthPage() {
  // Signed in already when arriving here (e.g. the logo): straight on. Sign-ins made here navigate themselves.
  const loggedInNow = useAppSelector((state) => state.user.loggedIn);
  const [loggedIn] = useState(loggedInNow);
  const remembered = useRememberedLocation();
  const navigate = useNavigate();
  const signIn = useSignIn();

  const onRestored = (user: UserDto) => {
    signIn(user);
    void navigate(remembered ?? '/home', { replace: true });
  };
  const restore = useSessionRestore(!loggedIn, onRestored);

  if (loggedIn) return <Navigate to={remembered ?? '/home'} replace />;
  if (restore.showSpinner) return <FullPageSpinner label="Restoring your session" />;
  return <AuthForm initialError={restore.message} />;
}
