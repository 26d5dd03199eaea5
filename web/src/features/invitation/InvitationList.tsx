import type { CreatedInvitationDto, InvitationDto } from '@nimbus/common';
import { useState } from 'react';
import { useInvitationsQuery, useResendInvitation, useRevokeInvitation } from '../../api/invitations.api';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { formatDay } from '../format/format-date';
import { InvitationOutcome } from './InvitationOutcome';
import { invitationErrorMessage } from './invitation-errors';

const STATUS_LABELS: Record<InvitationDto['status'], string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  expired: 'Expired',
  revoked: 'Revoked',
};

function InvitationRow({ invitation, onResend, onRevoke }: { invitation: InvitationDto; onResend: () => void; onRevoke: () => void }) {
  const open = invitation.status === 'pending' || invitation.status === 'expired';
  const when = invitation.status === 'pending' ? `Expires ${formatDay(invitation.expiresAt)}` : `Sent ${formatDay(invitation.createdAt)}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 border-b border-gray-100 py-3 last:border-b-0">
      <div className="min-w-0">
        <p className="text-sm font-medium break-all text-ink">{invitation.email}</p>
        <p className="text-sm text-muted">
          {STATUS_LABELS[invitation.status]} · {when}
        </p>
      </div>
      {open && (
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" aria-label={`Resend invitation to ${invitation.email}`} onClick={onResend}>
            Resend
          </Button>
          {invitation.status === 'pending' && (
            <Button variant="secondary" aria-label={`Revoke invitation to ${invitation.email}`} onClick={onRevoke}>
              Revoke
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

/** The invitations the signed-in account may see (all of them for an administrator), with resend and revoke. */
export function InvitationList() {
  const invitations = useInvitationsQuery();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [resent, setResent] = useState<CreatedInvitationDto | null>(null);
  const [revoking, setRevoking] = useState<InvitationDto | null>(null);

  if (invitations.isPending) return <Spinner className="m-8 size-8" label="Loading invitations" />;
  if (invitations.isError) return <FormError message={invitationErrorMessage(invitations.error, 'Could not load the invitations.')} />;
  return (
    <div>
      {invitations.data.length === 0 ? (
        <p className="py-4 text-sm text-muted">No invitations yet.</p>
      ) : (
        <ul aria-label="Invitations">
          {invitations.data.map((invitation) => (
            <InvitationRow
              key={invitation.id}
              invitation={invitation}
              onResend={() => resend.mutate(invitation.id, { onSuccess: setResent })}
              onRevoke={() => setRevoking(invitation)}
            />
          ))}
        </ul>
      )}
      {resend.isError && <FormError message={invitationErrorMessage(resend.error, 'Could not resend the invitation.')} />}
      {revoke.isError && <FormError message={invitationErrorMessage(revoke.error, 'Could not revoke the invitation.')} />}
      {resent && (
        <Dialog title="Invitation resent" onClose={() => setResent(null)} actions={<Button onClick={() => setResent(null)}>Done</Button>}>
          <InvitationOutcome created={resent} />
        </Dialog>
      )}
      {revoking && (
        <ConfirmDialog
          title="Revoke invitation?"
          text={`The link sent to ${revoking.email} will stop working.`}
          confirmLabel="Revoke"
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            revoke.mutate(revoking.id);
            setRevoking(null);
          }}
        />
      )}
    </div>
  );
}
