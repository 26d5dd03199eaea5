import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { leaveShare, listSharedWithMe } from '../../api/item-shares.api';
import { itemShareKeys } from '../../api/query-keys';
import { progressToast } from '../notifications/progress-toast';
import { shareErrorMessage } from '../item-shares/share-messages';

export const SHARED_WITH_ME_MESSAGES = {
  removing: 'Removing from Shared with me...',
  removed: 'Removed from Shared with me',
} as const;

/** What other accounts shared with this one, and leaving one of those shares. */
export function useSharedWithMe() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: itemShareKeys.sharedWithMe(), queryFn: listSharedWithMe });
  const leave = useMutation({
    mutationFn: async (shareId: string) => {
      const progress = progressToast(SHARED_WITH_ME_MESSAGES.removing);
      try {
        await leaveShare(shareId);
        progress.success(SHARED_WITH_ME_MESSAGES.removed);
      } catch (err) {
        progress.error(shareErrorMessage(err, 'leave'));
        throw err;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: itemShareKeys.sharedWithMe() }),
  });
  return { list, leave };
}
