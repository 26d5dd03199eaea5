import type { ItemAccessRole } from '@nimbus/common';
import type { Section } from '../layout/sections';

export type MenuAction =
  'multi-select' | 'rename' | 'share' | 'download' | 'upload-version' | 'move' | 'restore-as-of' | 'trash' | 'restore' | 'delete';

/** What the account may do with the item (see item-shares/shared-access): its own unless reached through a share. */
export interface MenuAccess {
  role: ItemAccessRole;
  isShareRoot: boolean;
}

const OWNER: MenuAccess = { role: 'owner', isShareRoot: false };

/**
 * The context menu by section: outside trash and media — multi-select, rename, share (files only), download, upload new
 * version (files), move, restore as it was (folders), trash; media — the same without rename and move; trash — restore and
 * delete, plus multi-select except in the breadcrumb bar.
 * An item reached through a share never offers public links ("share") nor a folder's restore; a viewer only downloads; an
 * editor may rename, move (within the share: the move popup starts at its top) and trash what is inside the shared folder,
 * and only download the shared item itself; an editor gives any file of the share a new version, the shared file too.
 */
export function menuActionsFor(type: 'file' | 'folder', section: Section, inBreadcrumb = false, access: MenuAccess = OWNER): MenuAction[] {
  if (section === 'trash') return inBreadcrumb ? ['restore', 'delete'] : ['multi-select', 'restore', 'delete'];
  if (access.role === 'viewer') return ['download'];
  const newVersion: MenuAction[] = type === 'file' ? ['upload-version'] : [];
  // The shared item itself is only downloaded (and given new content): multi-select would offer trash and move for it.
  if (access.role === 'editor' && access.isShareRoot) return ['download', ...newVersion];
  if (access.role === 'editor')
    return section === 'media'
      ? ['multi-select', 'download', ...newVersion, 'trash']
      : ['multi-select', 'rename', 'download', ...newVersion, 'move', 'trash'];
  const actions: MenuAction[] = ['multi-select'];
  if (section !== 'media') actions.push('rename');
  if (type === 'file') actions.push('share');
  actions.push('download', ...newVersion);
  if (section !== 'media') actions.push('move');
  if (type === 'folder' && section !== 'media') actions.push('restore-as-of');
  actions.push('trash');
  return actions;
}
