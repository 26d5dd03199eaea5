import type { UserDto } from '@nimbus/common';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { FullPageSpinner } from '../../components/Spinner';
import { useAppSelector } from '../../state/hooks';
import { useJustLoggedOut, useRememberedLocation } from '../session/RequireAuth';
import { useSignIn, useSignOutLocally } from '../session/useSession';
import { AuthForm } from './AuthForm';
import { useSessionRestore } from './useSessionRestore';

/** The landing / authentication screen at /. */
export function AuthPage() {
  const loggedInNow = useAppSelector((state) => state.user.loggedIn);
  const justLoggedOut = useJustLoggedOut();
  // Decided on arrival: signed in already (e.g. the logo) goes straight on; sign-ins made here navigate themselves.
  const [arrival] = useState(() => ({ signedIn: loggedInNow && !justLoggedOut, restore: !loggedInNow && !justLoggedOut }));
  const remembered = useRememberedLocation();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const signOutLocally = useSignOutLocally();

  useEffect(() => {
    if (justLoggedOut) signOutLocally();
  }, [justLoggedOut, signOutLocally]);

  const onRestored = (user: UserDto) => {
    signIn(user);
    void navigate(remembered ?? '/home', { replace: true });
  };
  const restore = useSessionRestore(arrival.restore, onRestored);

  if (arrival.signedIn) return <Navigate to={remembered ?? '/home'} replace />;
  if (restore.showSpinner) return <FullPageSpinner label="Restoring your session" />;
  return <AuthForm initialError={restore.message} />;
}
