import { ACCOUNT_MESSAGES } from '@nimbus/common';
import { MessageDialog } from '../../components/MessageDialog';

/** SPEC §5: a second e-mail within a minute of the last one. */
export function CooldownDialog({ onClose }: { onClose: () => void }) {
  return <MessageDialog title={ACCOUNT_MESSAGES.cooldown} buttonLabel="Okay" onClose={onClose} />;
}
