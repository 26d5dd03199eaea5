import type { CreatedInvitationDto } from '@nimbus/common';
import { CopyField } from '../settings/CopyField';

/** What became of a new or resent invitation: mailed, or a link to pass on by hand. */
export function InvitationOutcome({ created }: { created: CreatedInvitationDto }) {
  const { invitation, link } = created;
  if (!link) return <p>An invitation was sent to {invitation.email}.</p>;
  return (
    <div className="space-y-3">
      <p>No e-mail could be sent. Copy this link and give it to {invitation.email} yourself:</p>
      <CopyField label="Invitation link" value={link} />
    </div>
  );
}
