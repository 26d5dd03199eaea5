import type { AdminUserDto } from '@nimbus/common';
import { useState } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';

interface DeleteUserDialogProps {
  user: AdminUserDto;
  busy: boolean;
  error: string | null;
  onDelete: (confirmEmail: string) => void;
  onClose: () => void;
}

/** Deleting an account is confirmed by typing its e-mail exactly; until then the button stays disabled. */
export function DeleteUserDialog({ user, busy, error, onDelete, onClose }: DeleteUserDialogProps) {
  const [typed, setTyped] = useState('');
  const matches = typed === user.email;
  return (
    <Dialog
      title="Delete account?"
      onClose={onClose}
      actions={
        <>
          <Button variant="text" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" disabled={!matches || busy} onClick={() => onDelete(typed)}>
            Delete account
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <p>
          The account <span className="font-medium break-all text-ink">{user.email}</span> and all its files are deleted for good. This
          cannot be undone.
        </p>
        <TextField label="Type the account's e-mail address to confirm" autoComplete="off" value={typed} onChange={setTyped} />
        <FormError message={error} />
      </div>
    </Dialog>
  );
}
