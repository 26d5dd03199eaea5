import type { Section } from '../layout/sections';

export type MenuAction = 'multi-select' | 'rename' | 'share' | 'download' | 'move' | 'trash' | 'restore' | 'delete';

/**
 * The context menu by section: outside trash and media — multi-select, rename, share (files only), download, move, trash;
 * media — the same without rename and move; trash — restore and delete, plus multi-select except in the breadcrumb bar.
 */
export function menuActionsFor(type: 'file' | 'folder', section: Section, inBreadcrumb = false): MenuAction[] {
  if (section === 'trash') return inBreadcrumb ? ['restore', 'delete'] : ['multi-select', 'restore', 'delete'];
  const actions: MenuAction[] = ['multi-select'];
  if (section !== 'media') actions.push('rename');
  if (type === 'file') actions.push('share');
  actions.push('download');
  if (section !== 'media') actions.push('move');
  actions.push('trash');
  return actions;
}
