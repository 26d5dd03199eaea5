import { ACCOUNT_MESSAGES } from '@nimbus/common';
import { MessageDialog } from '../../components/MessageDialog';

/** Shown for a second verification or reset e-mail asked for within a minute of the last one. */
export function CooldownDialog({ onClose }: { onClose: () => void }) {
  return <MessageDialog title={ACCOUNT_MESSAGES.cooldown} buttonLabel="Okay" onClose={onClose} />;
}
