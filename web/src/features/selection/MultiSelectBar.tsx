import type { ComponentType } from 'react';
import { useLocation } from 'react-router';
import { DeleteForeverIcon, DownloadIcon, MoveIcon, RestoreIcon } from '../../components/drive-icons';
import { CloseIcon, TrashIcon } from '../../components/icons';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { requestConfirm, type OrganizeItem } from '../../state/organize.slice';
import { resetMultiSelect, setMoveModal } from '../../state/selection.slice';
import { downloadItems } from '../../api/download';
import { sectionOf } from '../layout/sections';
import { useSelectionAccess } from './useSelectionAccess';

function BarButton({ label, icon: Icon, onClick }: { label: string; icon: ComponentType<{ className?: string }>; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className="flex size-10 items-center justify-center rounded-full text-white hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-white"
    >
      <Icon className="size-5" />
    </button>
  );
}

/**
 * "n selected" at the bottom while multi-select is on: trash, move (not in media) and download; restore and delete in the
 * trash. Items reached through a share: a viewer only downloads; an editor trashes and moves (within the share) what is
 * inside it; a selection holding the shared item itself offers neither.
 */
export function MultiSelectBar() {
  const dispatch = useAppDispatch();
  const { multiSelectMode, multiSelectCount, multiSelectMap } = useAppSelector((state) => state.selection);
  const section = sectionOf(useLocation().pathname);
  const access = useSelectionAccess(Object.values(multiSelectMap));
  if (!multiSelectMode) return null;

  const items: OrganizeItem[] = Object.values(multiSelectMap).map(({ id, type }) => ({ id, type, name: '', parent: '' }));
  const confirm = (action: 'trash' | 'restore' | 'delete') => dispatch(requestConfirm({ action, items }));

  return (
    <div
      role="toolbar"
      aria-label="Selected items"
      className="fixed bottom-4 left-1/2 z-40 flex h-14 max-w-[calc(100vw-16px)] -translate-x-1/2 items-center gap-1 rounded-full bg-[#1f1f1f] px-2 text-white shadow-2xl"
    >
      <BarButton label="Clear selection" icon={CloseIcon} onClick={() => dispatch(resetMultiSelect())} />
      <span aria-live="polite" className="mr-2 ml-1 text-sm font-medium whitespace-nowrap">
        {multiSelectCount} selected
      </span>
      {section === 'trash' ? (
        <>
          <BarButton label="Restore" icon={RestoreIcon} onClick={() => confirm('restore')} />
          <BarButton label="Delete" icon={DeleteForeverIcon} onClick={() => confirm('delete')} />
        </>
      ) : (
        <>
          {access.canTrash && <BarButton label="Trash" icon={TrashIcon} onClick={() => confirm('trash')} />}
          {section !== 'media' && access.canMove && (
            <BarButton label="Move" icon={MoveIcon} onClick={() => dispatch(setMoveModal({ type: 'multi', file: null, folder: null }))} />
          )}
          <BarButton label="Download" icon={DownloadIcon} onClick={() => void downloadItems(items)} />
        </>
      )}
    </div>
  );
}
