import { useEffect, useRef, useState } from 'react';
import { AddIcon, CreateFolderIcon, UploadFileIcon, UploadFolderIcon } from '../../components/icons';
import { canAddInto } from '../item-shares/shared-access';
import { useOpenFolderAccess } from '../item-shares/useFolderAccess';
import { useCreateFolderAction } from '../organize/useCreateFolderAction';
import { useUploadPickers } from '../upload/useUploadPickers';

export interface AddNewActions {
  onUploadFiles?: () => void;
  onCreateFolder?: () => void;
  onUploadFolder?: () => void;
}

function supportsFolderSelection(): boolean {
  return typeof document !== 'undefined' && 'webkitdirectory' in document.createElement('input');
}

const itemClass =
  'flex w-full items-center gap-3 px-4 py-2.5 text-left text-sm text-ink hover:bg-gray-100 focus:bg-gray-100 focus:outline-none';

/** The "ADD NEW" dropdown; its actions are supplied by the upload and folder features. */
export function AddNewMenu({ actions = {} }: { actions?: AddNewActions }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const uploadPickers = useUploadPickers();
  const createFolder = useCreateFolderAction();
  // In a folder shared with the account as viewer nothing can be added: the button stays, disabled.
  const readOnly = !canAddInto(useOpenFolderAccess());

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const choose = (action?: () => void) => () => {
    setOpen(false);
    action?.();
  };

  return (
    <div ref={root} className="relative">
      {uploadPickers.inputs}
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open && !readOnly}
        disabled={readOnly}
        title={readOnly ? 'You can only view this shared folder' : undefined}
        onClick={() => setOpen((value) => !value)}
        className="flex h-14 items-center gap-3 rounded-2xl bg-white pr-6 pl-4 text-sm font-medium text-ink shadow-md ring-1 ring-black/5 transition-shadow enabled:hover:bg-blue-50 enabled:hover:shadow-lg disabled:cursor-not-allowed disabled:text-gray-400 disabled:shadow-none"
      >
        <AddIcon className="size-6" />
        ADD NEW
      </button>
      {open && !readOnly && (
        <div
          role="menu"
          aria-label="Add new"
          className="absolute top-full left-0 z-30 mt-2 w-60 overflow-hidden rounded-xl bg-white py-2 shadow-xl ring-1 ring-black/5"
        >
          <button type="button" role="menuitem" className={itemClass} onClick={choose(actions.onUploadFiles ?? uploadPickers.pickFiles)}>
            <UploadFileIcon className="size-5 text-muted" /> Upload Files
          </button>
          <button type="button" role="menuitem" className={itemClass} onClick={choose(actions.onCreateFolder ?? createFolder)}>
            <CreateFolderIcon className="size-5 text-muted" /> Create Folder
          </button>
          {supportsFolderSelection() && (
            <button
              type="button"
              role="menuitem"
              className={itemClass}
              onClick={choose(actions.onUploadFolder ?? uploadPickers.pickFolder)}
            >
              <UploadFolderIcon className="size-5 text-muted" /> Upload Folder
            </button>
          )}
        </div>
      )}
    </div>
  );
}
