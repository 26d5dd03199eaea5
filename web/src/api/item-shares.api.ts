import type { CreateItemShareBody, ItemShareDto, ShareRole, SharedWithMeDto } from '@nimbus/common';
import { http } from './client';

/** A file or folder of the signed-in account, as the share calls name it. */
export interface ShareableItem {
  itemType: 'file' | 'folder';
  itemId: string;
}

const BASE = '/item-share-service';

/** Who the owner shared the item with (owner only). */
export async function listItemShares({ itemType, itemId }: ShareableItem): Promise<ItemShareDto[]> {
  const { data } = await http.get<ItemShareDto[]>(`${BASE}/shares`, { params: { itemType, itemId } });
  return data;
}

/** Shares the item with the account using `email`; sharing again with the same person changes their role. */
export async function createItemShare(body: CreateItemShareBody): Promise<ItemShareDto> {
  const { data } = await http.post<ItemShareDto>(`${BASE}/shares`, body);
  return data;
}

export async function updateItemShare(id: string, role: ShareRole): Promise<ItemShareDto> {
  const { data } = await http.patch<ItemShareDto>(`${BASE}/shares/${encodeURIComponent(id)}`, { role });
  return data;
}

export async function deleteItemShare(id: string): Promise<void> {
  await http.delete(`${BASE}/shares/${encodeURIComponent(id)}`);
}

/** What other accounts shared with the signed-in one. */
export async function listSharedWithMe(): Promise<SharedWithMeDto[]> {
  const { data } = await http.get<SharedWithMeDto[]>(`${BASE}/shared-with-me`);
  return data;
}

/** Leaves a share: the item disappears from "Shared with me"; the owner keeps it. */
export async function leaveShare(shareId: string): Promise<void> {
  await http.delete(`${BASE}/shared-with-me/${encodeURIComponent(shareId)}`);
}
