import { useState } from 'react';
import { useUserDetailedQuery } from '../../api/user.queries';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { WarningIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { CooldownDialog } from '../account/CooldownDialog';
import { useLogout } from '../session/useLogout';
import { AccountErrorDialog } from './AccountErrorDialog';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { ExportDriveRow } from './ExportDriveRow';
import { SettingRow } from './SettingRow';
import { SsoOnlyRow } from './SsoOnlyRow';
import { useResendVerification } from './useResendVerification';

type OpenDialog = 'password' | 'logout' | 'logout-all' | null;

export function AccountSection() {
  const { data: user, isPending, isError } = useUserDetailedQuery();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const resend = useResendVerification();
  const logout = useLogout();
  const close = () => setDialog(null);

  if (isError) return <AccountErrorDialog />;
  if (isPending) return <Spinner className="m-8 size-8" label="Loading account" />;

  const email = (
    <>
      <span>{user.email}</span>
      {!user.emailVerified && (
        <span className="mt-1 flex items-center gap-1 text-amber-700">
          <WarningIcon className="size-4" /> Email not verified
        </span>
      )}
    </>
  );

  return (
    <div>
      <SettingRow title="Email" description={email}>
        {!user.emailVerified && (
          <Button variant="secondary" disabled={resend.busy} onClick={() => void resend.resend()}>
            Resend
          </Button>
        )}
      </SettingRow>
      {user.hasPassword === false ? (
        <SsoOnlyRow />
      ) : (
        <SettingRow title="Change password">
          <Button variant="secondary" onClick={() => setDialog('password')}>
            Change
          </Button>
        </SettingRow>
      )}
      <ExportDriveRow />
      <SettingRow title="Logout account">
        <Button variant="secondary" onClick={() => setDialog('logout')}>
          Logout
        </Button>
      </SettingRow>
      <SettingRow title="Logout all sessions">
        <Button variant="secondary" onClick={() => setDialog('logout-all')}>
          Logout all
        </Button>
      </SettingRow>
      {dialog === 'password' && <ChangePasswordDialog onClose={close} />}
      {dialog === 'logout' && (
        <ConfirmDialog
          title="Logout?"
          text="You will be signed out of this browser."
          confirmLabel="Yes, logout"
          onCancel={close}
          onConfirm={() => {
            close();
            void logout('one');
          }}
        />
      )}
      {dialog === 'logout-all' && (
        <ConfirmDialog
          title="Logout all?"
          text="Every session on every device will be signed out, this one included."
          confirmLabel="Yes, logout all"
          danger
          onCancel={close}
          onConfirm={() => {
            close();
            void logout('all');
          }}
        />
      )}
      {resend.cooldownOpen && <CooldownDialog onClose={resend.closeCooldown} />}
    </div>
  );
}
