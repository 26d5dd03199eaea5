import type { AppPasswordDto, SessionDto } from '@nimbus/common';
import { useState } from 'react';
import { useAppPasswordsQuery } from '../../api/app-passwords.api';
import { useSessionsQuery, useSignOutSession } from '../../api/sessions.api';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError } from '../../components/FormError';
import { icon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { useLogout } from '../session/useLogout';
import { SettingRow } from './SettingRow';

export const DevicesIcon = icon(
  'M4 6h18V4H4c-1.1 0-2 .9-2 2v11H0v3h14v-3H4V6zm19 2h-6c-.55 0-1 .45-1 1v10c0 .55.45 1 1 1h6c.55 0 1-.45 1-1V9c0-.55-.45-1-1-1zm-1 9h-4v-7h4v7z',
);

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

const METHODS: Record<NonNullable<SessionDto['signInMethod']>, string> = {
  password: 'password',
  passkey: 'passkey',
  oidc: 'single sign-on',
};

/** "Chrome 156 on Linux", or whichever half the user agent told. */
export function deviceName(session: Pick<SessionDto, 'browser' | 'system'>): string {
  if (session.browser && session.system) return `${session.browser} on ${session.system}`;
  return session.browser ?? session.system ?? 'Unknown browser';
}

function SessionRow({ session, onSignOut }: { session: SessionDto; onSignOut: () => void }) {
  const name = deviceName(session);
  const facts = [
    session.clientAddress,
    session.signInMethod && `Signed in with ${METHODS[session.signInMethod]}`,
    `First seen ${formatDate(session.createdAt)}`,
    `Last seen ${formatDate(session.lastUsedAt)}`,
  ].filter(Boolean);
  const description = (
    <>
      {session.current && (
        <span className="mr-2 inline-block rounded-full bg-blue-50 px-2 py-0.5 text-xs font-medium text-blue-700">This device</span>
      )}
      {facts.join(' · ')}
    </>
  );
  return (
    <SettingRow title={name} description={description}>
      <Button variant="secondary" aria-label={`Sign out ${name}${session.current ? ' (this device)' : ''}`} onClick={onSignOut}>
        Sign out
      </Button>
    </SettingRow>
  );
}

function AppPasswordRow({ entry }: { entry: AppPasswordDto }) {
  const lastUse = entry.lastUsedAt ? `Last used ${formatDate(entry.lastUsedAt)}` : 'Never used';
  return (
    <SettingRow title={entry.name} description={`App password · Created ${formatDate(entry.createdAt)} · ${lastUse}`}>
      {null}
    </SettingRow>
  );
}

/**
 * Where the account is signed in: each browser session (signed out alone, at once) and the app
 * passwords devices use for WebDAV, with their last use (managed under App passwords).
 */
export function DevicesSection() {
  const sessions = useSessionsQuery();
  const appPasswords = useAppPasswordsQuery();
  const signOut = useSignOutSession();
  const logout = useLogout();
  const [confirming, setConfirming] = useState<SessionDto | null>(null);

  const confirm = (session: SessionDto) => {
    setConfirming(null);
    // Its own session ends as logout does: the cookies go and the app leaves for the login screen.
    if (session.current) void logout('one');
    else signOut.mutate(session.id);
  };

  return (
    <div>
      <p className="border-b border-gray-100 py-4 text-sm text-muted">
        Browsers signed in to your account. If you do not recognise one, sign it out and change your password.
      </p>
      {sessions.isPending && <Spinner className="m-8 size-8" label="Loading sessions" />}
      {sessions.isError && <FormError message="Could not load your sessions" />}
      {sessions.data?.map((session) => (
        <SessionRow key={session.id} session={session} onSignOut={() => setConfirming(session)} />
      ))}
      {signOut.isError && <FormError message="Could not sign out the session" />}

      <h2 className="mt-8 text-base font-medium text-ink">App passwords</h2>
      <p className="border-b border-gray-100 py-2 text-sm text-muted">
        Devices using WebDAV sign in with an app password. Make or revoke them under App passwords.
      </p>
      {appPasswords.isPending && <Spinner className="m-8 size-8" label="Loading app passwords" />}
      {appPasswords.isError && <FormError message="Could not load your app passwords" />}
      {appPasswords.data?.length === 0 && <p className="py-4 text-sm text-muted">No app passwords.</p>}
      {appPasswords.data?.map((entry) => (
        <AppPasswordRow key={entry.id} entry={entry} />
      ))}

      {confirming && (
        <ConfirmDialog
          title="Sign out this session?"
          text={
            confirming.current
              ? 'This is the browser you are using: you will be signed out here.'
              : `${deviceName(confirming)} will be signed out at once and must sign in again.`
          }
          confirmLabel="Sign out"
          danger
          onCancel={() => setConfirming(null)}
          onConfirm={() => confirm(confirming)}
        />
      )}
    </div>
  );
}
