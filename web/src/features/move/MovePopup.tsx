import { TIMINGS, type FolderDto } from '@nimbus/common';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { folderKeys } from '../../api/query-keys';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ResetIcon } from '../../components/drive-icons';
import { ArrowBackIcon, FolderIcon, SearchIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { resetMoveModal, type SelectionState } from '../../state/selection.slice';
import { driveApi, ROOT } from '../../api/drive.api';
import { useOrganizeActions } from '../organize/useOrganizeActions';
import { useDebouncedValue } from '../search/useDebouncedValue';
import { useSelectionAccess } from '../selection/useSelectionAccess';

interface Place {
  id: string;
  name: string;
  parent: string;
}

const HOME: Place = { id: ROOT, name: 'Home', parent: ROOT };
const placeOf = (folder: FolderDto): Place => ({ id: folder._id, name: folder.name, parent: folder.parent });

/** The move popup for the file, folder or multi-selection in `moveModal`. */
export function MovePopup() {
  const modal = useAppSelector((state) => state.selection.moveModal);
  if (!modal.type) return null;
  return <MoveDialog key={`${modal.type}:${modal.file?._id ?? modal.folder?._id ?? ''}`} modal={modal} />;
}

function MoveDialog({ modal }: { modal: SelectionState['moveModal'] }) {
  const dispatch = useAppDispatch();
  const queryClient = useQueryClient();
  const multiSelectMap = useAppSelector((state) => state.selection.multiSelectMap);
  const actions = useOrganizeActions();
  const isMulti = modal.type === 'multi';
  const items = isMulti
    ? Object.values(multiSelectMap)
    : modal.file
      ? [{ type: 'file' as const, id: modal.file._id }]
      : modal.folder
        ? [{ type: 'folder' as const, id: modal.folder._id }]
        : [];
  const movedFolderIds = items.filter((item) => item.type === 'folder').map((item) => item.id);
  const currentParent = modal.file?.metadata.parent ?? modal.folder?.parent;

  // Items inside a folder shared with the account move only within that share: its top replaces Home.
  const selectionShare = useSelectionAccess(items).share;
  const share = isMulti ? selectionShare : (modal.file?.shared ?? modal.folder?.shared ?? selectionShare);
  const shareRootId = share?.rootType === 'folder' ? share.rootId : null;
  const shareRoot = useQuery({
    queryKey: folderKeys.info(shareRootId ?? ROOT),
    queryFn: () => driveApi.folderInfo(shareRootId!),
    enabled: shareRootId !== null,
  });
  const top: Place = shareRootId ? { id: shareRootId, name: shareRoot.data?.name ?? '', parent: ROOT } : HOME;
  const nameOf = (at: Place) => (at.id === top.id ? top.name : at.name);
  const canSearch = !isMulti && !shareRootId;

  // Null while at the top: the share may be known only once the lists behind the popup have loaded.
  const [entered, setEntered] = useState<Place | null>(null);
  const place = entered ?? top;
  const [selected, setSelected] = useState<Place | null>(null);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(false);
  const lastClick = useRef<{ id: string; at: number } | null>(null);
  const debouncedSearch = useDebouncedValue(search.trim(), TIMINGS.searchDebounceMs);

  const params = { parent: place.id, search: canSearch ? debouncedSearch : '', folderIDs: movedFolderIds, currentParent };
  const list = useQuery({ queryKey: folderKeys.moveList(params), queryFn: () => driveApi.moveFolderList(params) });

  const close = () => dispatch(resetMoveModal());
  const enter = (next: Place) => {
    setEntered(next.id === top.id ? null : next);
    setSelected(null);
    setSearch('');
    lastClick.current = null;
  };

  const up = async () => {
    if (place.id === top.id) return;
    if (place.parent === top.id || place.parent === ROOT) return enter(top);
    const parent = await queryClient
      .fetchQuery({ queryKey: folderKeys.info(place.parent), queryFn: () => driveApi.folderInfo(place.parent) })
      .catch(() => null);
    enter(parent ? placeOf(parent) : top);
  };

  const clickFolder = (folder: FolderDto) => {
    const now = Date.now();
    const previous = lastClick.current;
    if (selected?.id === folder._id && previous?.id === folder._id && now - previous.at < TIMINGS.doubleClickMs) {
      enter(placeOf(folder));
      return;
    }
    setSelected(placeOf(folder));
    lastClick.current = { id: folder._id, at: now };
  };

  const target = selected ?? place;
  const confirm = async () => {
    setBusy(true);
    await actions.move(items, target.id, isMulti);
    close();
  };

  return (
    <Dialog title={isMulti ? `Move ${items.length} items` : `Move ${modal.file?.filename ?? modal.folder?.name ?? ''}`} onClose={close}>
      <div className="flex items-center gap-1">
        <button
          type="button"
          aria-label="Up one folder"
          title="Up one folder"
          disabled={place.id === top.id}
          onClick={() => void up()}
          className="flex size-10 shrink-0 items-center justify-center rounded-full text-muted enabled:hover:bg-black/5 disabled:opacity-40"
        >
          <ArrowBackIcon className="size-5" />
        </button>
        {canSearch ? (
          <label className="flex h-10 min-w-0 flex-1 items-center gap-2 rounded-full bg-[#e9eef6] px-3 focus-within:bg-white focus-within:ring-2 focus-within:ring-primary/30">
            <SearchIcon className="size-5 shrink-0 text-muted" />
            <input
              type="search"
              aria-label="Search folders"
              placeholder="Search folders"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="h-full min-w-0 flex-1 bg-transparent text-sm text-ink outline-none [&::-webkit-search-cancel-button]:hidden"
            />
          </label>
        ) : (
          <span className="flex-1" />
        )}
        <button
          type="button"
          aria-label="Reset"
          title="Reset"
          onClick={() => enter(top)}
          className="flex size-10 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5"
        >
          <ResetIcon className="size-5" />
        </button>
      </div>

      <button
        type="button"
        aria-label={`Choose ${nameOf(place)}`}
        aria-pressed={selected === null}
        onClick={() => setSelected(null)}
        className={`mt-3 flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium ${
          selected === null ? 'bg-selected text-[#001d35]' : 'text-ink hover:bg-black/5'
        }`}
      >
        <FolderIcon className="size-5 text-muted" />
        <span className="truncate">{nameOf(place)}</span>
      </button>

      <div
        role="listbox"
        aria-label="Folders to move to"
        aria-busy={list.isFetching}
        className="mt-1 h-[230px] overflow-y-auto rounded-lg border border-gray-200"
      >
        {list.isPending ? (
          <div className="flex h-full items-center justify-center">
            <Spinner label="Loading folders" />
          </div>
        ) : (list.data ?? []).length === 0 ? (
          <p className="p-4 text-sm text-muted">No folders</p>
        ) : (
          (list.data ?? []).map((folder) => (
            <div
              key={folder._id}
              role="option"
              aria-selected={selected?.id === folder._id}
              aria-label={folder.name}
              tabIndex={0}
              onClick={() => clickFolder(folder)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') enter(placeOf(folder));
                if (event.key === ' ') {
                  event.preventDefault();
                  setSelected(placeOf(folder));
                }
              }}
              className={`flex h-11 cursor-default items-center gap-3 px-3 text-sm outline-none select-none focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-inset ${
                selected?.id === folder._id ? 'bg-selected text-[#001d35]' : 'text-ink hover:bg-black/5'
              }`}
            >
              <FolderIcon className="size-5 shrink-0 text-muted" />
              <span className="truncate">{folder.name}</span>
            </div>
          ))
        )}
      </div>

      <div className="mt-5 flex items-center justify-between gap-3">
        <p className="min-w-0 truncate text-sm text-ink" data-testid="move-target">
          {target.id === ROOT ? 'Move to home' : `Move to ${nameOf(target)}`}
        </p>
        <Button onClick={() => void confirm()} disabled={busy || items.length === 0 || (!isMulti && target.id === currentParent)}>
          Confirm
        </Button>
      </div>
    </Dialog>
  );
}
