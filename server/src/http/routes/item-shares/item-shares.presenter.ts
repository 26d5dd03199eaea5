import type { ItemShareDto, SharedAccessDto, SharedWithMeDto } from '@nimbus/common';
import type { ItemShareWithAccount } from '../../../services/sharing/item-share.service.js';
import type { ItemAccessAnswer } from '../../../services/sharing/item-access.js';
import type { ReceivedShare } from '../../../services/sharing/item-share.service.js';
import { presentSharedFile } from '../files/files.presenter.js';
import { presentSharedFolder } from '../folders/folders.presenter.js';

/** The owner's view of a share; `accountEmail` is the recipient's. */
export function presentItemShare(share: ItemShareWithAccount): ItemShareDto {
  return {
    id: share.id,
    itemType: share.itemType,
    itemId: share.itemId,
    recipient: { id: share.recipientId, email: share.accountEmail },
    role: share.role,
    createdAt: new Date(share.createdAt).toISOString(),
  };
}

/** What an item reached through a share tells about it; nothing for the caller's own items. */
export function sharedAccessOf(access: ItemAccessAnswer): SharedAccessDto | undefined {
  const share = access.share;
  if (!share) return undefined;
  return { role: share.role, owner: share.owner, rootId: share.rootId, rootType: share.rootType };
}

/** One item of "Shared with me"; `accountEmail` is the owner's. */
export function presentReceivedShare({ share, file, folder }: ReceivedShare): SharedWithMeDto {
  const owner = { id: share.ownerId, email: share.accountEmail };
  const shared: SharedAccessDto = { role: share.role, owner, rootId: share.itemId, rootType: share.itemType };
  return {
    shareId: share.id,
    role: share.role,
    owner,
    sharedAt: new Date(share.createdAt).toISOString(),
    itemType: share.itemType,
    ...(file ? { file: presentSharedFile(file, shared) } : {}),
    ...(folder ? { folder: presentSharedFolder(folder, shared) } : {}),
  };
}
