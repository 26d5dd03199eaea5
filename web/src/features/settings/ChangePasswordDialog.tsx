import { ACCOUNT_MESSAGES, validateNewPassword } from '@nimbus/common';
import { useState, type FormEvent } from 'react';
import { statusOf } from '../../api/api-error';
import { userApi } from '../../api/user.api';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { progressToast } from '../notifications/progress-toast';

export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [verify, setVerify] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const invalid = next || verify ? validateNewPassword(next, verify) : null;
  const canSubmit = !!current && !!next && !!verify && !invalid && !busy;

  const edit = (set: (value: string) => void) => (value: string) => {
    setFailure(null);
    set(value);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    const toast = progressToast(ACCOUNT_MESSAGES.changingPassword);
    try {
      await userApi.changePassword({ oldPassword: current, newPassword: next });
      toast.success(ACCOUNT_MESSAGES.passwordChanged);
      onClose();
    } catch (err) {
      const message = statusOf(err) === 401 ? ACCOUNT_MESSAGES.incorrectPassword : ACCOUNT_MESSAGES.errorChangingPassword;
      toast.error(message);
      setFailure(message);
      setBusy(false);
    }
  };

  return (
    <Dialog title="Change password" onClose={onClose}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4 pt-1">
        <TextField label="Current password" type="password" autoComplete="current-password" value={current} onChange={edit(setCurrent)} />
        <TextField label="New password" type="password" autoComplete="new-password" value={next} onChange={edit(setNext)} />
        <TextField label="Verify new password" type="password" autoComplete="new-password" value={verify} onChange={edit(setVerify)} />
        <FormError message={failure ?? invalid} />
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="text" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!canSubmit}>
            Submit
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
