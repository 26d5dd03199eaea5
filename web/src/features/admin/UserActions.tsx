import type { AdminPasswordResetDto, AdminUserDto, UpdateAdminUserBody } from '@nimbus/common';
import { useState } from 'react';
import { useAdminPasswordReset, useAdminTwoFactorReset, useDeleteAdminUser, useUpdateAdminUser } from '../../api/admin.api';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { toast } from '../notifications/toast';
import { CopyField } from '../settings/CopyField';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { adminErrorMessage } from './admin-errors';
import { DeleteUserDialog } from './DeleteUserDialog';
import { QuotaDialog } from './QuotaDialog';

type OpenDialog = 'quota' | 'delete' | null;

function PasswordResetDialog({ email, reset, onClose }: { email: string; reset: AdminPasswordResetDto; onClose: () => void }) {
  return (
    <Dialog title="Password reset" onClose={onClose} actions={<Button onClick={onClose}>Done</Button>}>
      {reset.link ? (
        <div className="space-y-3">
          <p>No e-mail could be sent. Copy this link and give it to {email} yourself:</p>
          <CopyField label="Password reset link" value={reset.link} />
        </div>
      ) : (
        <p>A password reset link was sent to {email}.</p>
      )}
    </Dialog>
  );
}

/** The actions menu of one account row and the dialogs it opens. */
export function UserActions({ user }: { user: AdminUserDto }) {
  const update = useUpdateAdminUser();
  const remove = useDeleteAdminUser();
  const passwordReset = useAdminPasswordReset();
  const twoFactorReset = useAdminTwoFactorReset();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [reset, setReset] = useState<AdminPasswordResetDto | null>(null);

  const change = (body: UpdateAdminUserBody, done: string) =>
    update.mutate(
      { id: user.id, body },
      {
        onSuccess: () => {
          toast.success(done);
          setDialog(null);
        },
        onError: (error) => {
          if (!dialog) toast.error(adminErrorMessage(error, 'The account could not be changed.'));
        },
      },
    );

  const disabled = user.status === 'disabled';
  const isAdmin = user.role === 'admin';
  const actions: MenuAction[] = [
    disabled
      ? { label: 'Enable account', onSelect: () => change({ disabled: false }, `${user.email} can sign in again`) }
      : { label: 'Disable account', onSelect: () => change({ disabled: true }, `${user.email} is disabled`) },
    {
      label: 'Set quota',
      onSelect: () => {
        update.reset();
        setDialog('quota');
      },
    },
    isAdmin
      ? { label: 'Remove administrator', onSelect: () => change({ role: 'user' }, `${user.email} is no longer an administrator`) }
      : { label: 'Make administrator', onSelect: () => change({ role: 'admin' }, `${user.email} is now an administrator`) },
    {
      label: 'Send password reset',
      onSelect: () =>
        passwordReset.mutate(user.id, {
          onSuccess: setReset,
          onError: (error) => toast.error(adminErrorMessage(error, 'The password reset could not be started.')),
        }),
    },
    ...(user.twoFactor
      ? [
          {
            label: 'Turn off two-factor sign-in',
            onSelect: () =>
              twoFactorReset.mutate(user.id, {
                onSuccess: () => toast.success(`${user.email} can sign in with the password alone, until two-factor is set up again`),
                onError: (error) => toast.error(adminErrorMessage(error, 'Two-factor sign-in could not be turned off.')),
              }),
          },
        ]
      : []),
    {
      label: 'Delete account',
      danger: true,
      onSelect: () => {
        remove.reset();
        setDialog('delete');
      },
    },
  ];

  return (
    <>
      <ActionsMenu label={`Actions for ${user.email}`} actions={actions} />
      {dialog === 'quota' && (
        <QuotaDialog
          user={user}
          busy={update.isPending}
          error={update.isError ? adminErrorMessage(update.error, 'The quota could not be saved.') : null}
          onSave={(quotaBytes) => change({ quotaBytes }, `Quota of ${user.email} saved`)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'delete' && (
        <DeleteUserDialog
          user={user}
          busy={remove.isPending}
          error={remove.isError ? adminErrorMessage(remove.error, 'The account could not be deleted.') : null}
          onDelete={(confirmEmail) =>
            remove.mutate(
              { id: user.id, confirmEmail },
              {
                onSuccess: () => {
                  toast.success(`${user.email} is being deleted`);
                  setDialog(null);
                },
              },
            )
          }
          onClose={() => setDialog(null)}
        />
      )}
      {reset && <PasswordResetDialog email={user.email} reset={reset} onClose={() => setReset(null)} />}
    </>
  );
}
