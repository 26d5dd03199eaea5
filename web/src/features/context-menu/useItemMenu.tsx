import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';
import { lazyModule } from '../../components/lazy-module';
import { CheckBoxIcon, DeleteForeverIcon, DownloadIcon, EditIcon, MoveIcon, RestoreIcon, ShareIcon } from '../../components/drive-icons';
import { HistoryIcon, TrashIcon, UploadFileIcon } from '../../components/icons';
import { useAppDispatch } from '../../state/hooks';
import { requestConfirm, requestRename } from '../../state/organize.slice';
import { setMoveModal, setShareSelected, toggleMultiSelect } from '../../state/selection.slice';
import { downloadItems } from '../../api/download';
import { itemId, itemName, organizeItemOf, type DriveItem } from '../../api/drive-items';
import { sectionOf } from '../layout/sections';
import { useVersionUpload } from '../upload/useVersionUpload';
import type { ContextMenuEntry } from './ContextMenu';
import { menuActionsFor, type MenuAccess, type MenuAction } from './item-menu';
import { useItemMenuExtras } from './item-menu-extras';

/**
 * The menu (with its focus trap) is not needed to draw a list: it loads once the page is on screen
 * (`loadDeferredModules`), or when a menu opens before that.
 */
const contextMenu = lazyModule(() => import('./ContextMenu'));
/** A folder's "Restore as it was…" dialog, rarely opened: loaded like the menu. */
const restoreAsOf = lazyModule(() => import('../versions/RestoreAsOfDialog'));

const LABELS: Record<MenuAction, { label: string; icon: ContextMenuEntry['icon']; danger?: boolean }> = {
  'multi-select': { label: 'Multi-select', icon: CheckBoxIcon },
  rename: { label: 'Rename', icon: EditIcon },
  share: { label: 'Share', icon: ShareIcon },
  download: { label: 'Download', icon: DownloadIcon },
  'upload-version': { label: 'Upload new version', icon: UploadFileIcon },
  move: { label: 'Move', icon: MoveIcon },
  'restore-as-of': { label: 'Restore as it was…', icon: HistoryIcon },
  trash: { label: 'Trash', icon: TrashIcon, danger: true },
  restore: { label: 'Restore', icon: RestoreIcon },
  delete: { label: 'Delete', icon: DeleteForeverIcon, danger: true },
};

/** The account's own item, or one reached through a share (with the role it was shared with). */
function menuAccessOf(item: DriveItem): MenuAccess {
  const shared = item.type === 'file' ? item.file.shared : item.folder.shared;
  return shared ? { role: shared.role, isShareRoot: shared.rootId === itemId(item) } : { role: 'owner', isShareRoot: false };
}

/** The context menu of a file or folder for the section on screen: where it is open, and the element to render. */
export function useItemMenu(item: DriveItem, inBreadcrumb = false) {
  const dispatch = useAppDispatch();
  const section = sectionOf(useLocation().pathname);
  const extras = useItemMenuExtras(item);
  const uploadVersion = useVersionUpload();
  const [at, setAt] = useState<{ x: number; y: number } | null>(null);
  const [restoringAsOf, setRestoringAsOf] = useState(false);
  const close = useCallback(() => setAt(null), []);
  const open = useCallback((point: { x: number; y: number }) => {
    if (contextMenu.current) setAt(point);
    else
      contextMenu.load().then(
        () => setAt(point),
        () => undefined,
      );
  }, []);

  const run = (action: MenuAction) => {
    const ref = organizeItemOf(item);
    switch (action) {
      case 'multi-select':
        return dispatch(toggleMultiSelect([{ id: ref.id, type: ref.type }]));
      case 'rename':
        return dispatch(requestRename(ref));
      case 'share':
        return item.type === 'file' && dispatch(setShareSelected(item.file));
      case 'download':
        return void downloadItems([ref]);
      case 'upload-version':
        return item.type === 'file' && void uploadVersion(item.file);
      case 'restore-as-of':
        return void restoreAsOf.load().then(
          () => setRestoringAsOf(true),
          () => undefined,
        );
      case 'move':
        return dispatch(
          setMoveModal(
            item.type === 'file' ? { type: 'file', file: item.file, folder: null } : { type: 'folder', file: null, folder: item.folder },
          ),
        );
      case 'trash':
      case 'restore':
      case 'delete':
        return dispatch(requestConfirm({ action, items: [ref] }));
    }
  };

  const entries = [
    ...menuActionsFor(item.type, section, inBreadcrumb, menuAccessOf(item)).map((action) => ({
      ...LABELS[action],
      onSelect: () => run(action),
    })),
    ...extras,
  ];
  const ContextMenu = contextMenu.current?.ContextMenu;
  const menu =
    at && ContextMenu ? (
      <ContextMenu key={itemId(item)} label={`Actions for ${itemName(item)}`} at={at} entries={entries} onClose={close} />
    ) : null;
  const RestoreAsOfDialog = restoreAsOf.current?.RestoreAsOfDialog;
  const dialog =
    restoringAsOf && RestoreAsOfDialog ? (
      <RestoreAsOfDialog folder={{ id: itemId(item), name: itemName(item) }} onClose={() => setRestoringAsOf(false)} />
    ) : null;
  const element =
    menu || dialog ? (
      <>
        {menu}
        {dialog}
      </>
    ) : null;
  return { open, close, isOpen: at !== null, element };
}
