import { ITEM_SHARE_LIMITS, type ShareRole } from '@nimbus/common';
import { ApiError } from '../../api/api-error';

export const ROLE_LABELS: Record<ShareRole, string> = { viewer: 'Viewer', editor: 'Editor' };

type ShareCall = 'add' | 'change' | 'remove' | 'leave';

const FALLBACK: Record<ShareCall, string> = {
  add: 'The person could not be added. Try again.',
  change: 'The role could not be changed. Try again.',
  remove: 'The person could not be removed. Try again.',
  leave: 'The item could not be removed from Shared with me. Try again.',
};

/** What a failed share call means, in words; branches on the server's stable code. */
export function shareErrorMessage(error: unknown, call: ShareCall): string {
  // Codes as plain strings: the web app must read answers of servers newer than its own type list.
  const code: string = error instanceof ApiError ? error.code : '';
  switch (code) {
    case 'RECIPIENT_NOT_FOUND':
      return 'No account uses this e-mail';
    case 'SHARE_WITH_SELF':
      return 'You cannot share an item with yourself';
    case 'TOO_MANY_SHARES':
      return `An item can be shared with at most ${ITEM_SHARE_LIMITS.sharesPerItem} people`;
    case 'SHARE_NOT_FOUND':
      return 'This share no longer exists';
    case 'VALIDATION_FAILED':
      return call === 'add' ? 'Enter a valid e-mail address' : FALLBACK[call];
    default:
      return FALLBACK[call];
  }
}
