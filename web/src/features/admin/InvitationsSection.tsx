import { useState } from 'react';
import { Button } from '../../components/Button';
import { InvitationList } from '../invitation/InvitationList';
import { InviteDialog } from '../invitation/InviteDialog';

export function InvitationsSection() {
  const [inviting, setInviting] = useState(false);
  return (
    <div className="py-4">
      <div className="flex justify-end">
        <Button onClick={() => setInviting(true)}>Invite</Button>
      </div>
      <InvitationList />
      {inviting && <InviteDialog onClose={() => setInviting(false)} />}
    </div>
  );
}
