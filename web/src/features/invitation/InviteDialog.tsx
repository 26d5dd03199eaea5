import { inviteBody, type CreatedInvitationDto } from '@nimbus/common';
import { useState, type FormEvent } from 'react';
import { useCreateInvitation } from '../../api/invitations.api';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { InvitationOutcome } from './InvitationOutcome';
import { invitationErrorMessage } from './invitation-errors';

/** Invite someone by e-mail: the invitation is mailed, or its link is shown to copy when no mail went out. */
export function InviteDialog({ onClose }: { onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = useCreateInvitation();
  const [created, setCreated] = useState<CreatedInvitationDto | null>(null);

  if (created) {
    return (
      <Dialog title="Invitation created" onClose={onClose} actions={<Button onClick={onClose}>Done</Button>}>
        <InvitationOutcome created={created} />
      </Dialog>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = inviteBody.safeParse({ email });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? 'Enter a valid e-mail address.');
      return;
    }
    create.mutate(parsed.data.email, { onSuccess: setCreated });
  };

  return (
    <Dialog title="Invite someone" onClose={onClose}>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <p>They get a link to create their account. It works for 7 days.</p>
        <TextField
          label="E-mail address of the person to invite"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(value) => {
            setInvalid(null);
            create.reset();
            setEmail(value);
          }}
        />
        <FormError
          message={invalid ?? (create.isError ? invitationErrorMessage(create.error, 'Could not create the invitation.') : null)}
        />
        <div className="flex justify-end gap-2">
          <Button variant="text" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!email.trim() || create.isPending}>
            Send invitation
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
