import type { ShareRole } from '@nimbus/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createItemShare, deleteItemShare, listItemShares, updateItemShare, type ShareableItem } from '../../api/item-shares.api';
import { itemShareKeys } from '../../api/query-keys';

/** Who the owner's item is shared with, and the calls that add, change and remove people. */
export function useItemShares(item: ShareableItem) {
  const queryClient = useQueryClient();
  const key = itemShareKeys.forItem(item.itemType, item.itemId);
  const shares = useQuery({ queryKey: key, queryFn: () => listItemShares(item) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const add = useMutation({
    mutationFn: ({ email, role }: { email: string; role: ShareRole }) => createItemShare({ ...item, email: email.trim(), role }),
    onSettled: refresh,
  });
  const change = useMutation({
    mutationFn: ({ id, role }: { id: string; role: ShareRole }) => updateItemShare(id, role),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (id: string) => deleteItemShare(id), onSettled: refresh });

  return { shares, add, change, remove };
}
