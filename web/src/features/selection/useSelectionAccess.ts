import type { FileDto, FolderDto, SharedAccessDto, SharedWithMeDto } from '@nimbus/common';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { driveApi } from '../../api/drive.api';
import { fileKeys, folderKeys, itemShareKeys } from '../../api/query-keys';
import type { MultiSelectItem } from '../../state/selection.slice';
import { openFolderIdOf } from '../item-shares/useFolderAccess';

type DriveDto = FileDto | FolderDto;
interface Found {
  type: MultiSelectItem['type'];
  dto: DriveDto;
}

const isDto = (value: unknown): value is DriveDto =>
  typeof value === 'object' && value !== null && typeof (value as DriveDto)._id === 'string';
const typeOf = (dto: DriveDto): MultiSelectItem['type'] => ('metadata' in dto ? 'file' : 'folder');
const isSharedWithMeEntry = (value: unknown): value is SharedWithMeDto =>
  typeof value === 'object' && value !== null && typeof (value as SharedWithMeDto).shareId === 'string';

/** A "Shared with me" entry's item, marked as the top of its share (the server may leave the mark off it). */
function sharedRootOf(entry: SharedWithMeDto): DriveDto | null {
  const item = entry.file ?? entry.folder;
  if (!item) return null;
  return { ...item, shared: item.shared ?? { role: entry.role, owner: entry.owner, rootId: item._id, rootType: entry.itemType } };
}

/**
 * The files and folders of a cached answer: one item (folder info), a list, an infinite query's pages,
 * the search suggestions ({ folderList, fileList }), or the "Shared with me" entries.
 */
function dtosOf(data: unknown): DriveDto[] {
  if (isDto(data)) return [data];
  if (Array.isArray(data))
    return data.flatMap((value) => (isSharedWithMeEntry(value) ? (sharedRootOf(value) ?? []) : isDto(value) ? [value] : []));
  if (typeof data !== 'object' || data === null) return [];
  const { pages, folderList, fileList } = data as { pages?: unknown; folderList?: unknown; fileList?: unknown };
  return [pages, folderList, fileList].filter(Array.isArray).flatMap((list: unknown[]) => list.flatMap(dtosOf));
}

/** Every cached copy of the selected items: a list drew them, so its answer says whether they came through a share. */
function cachedCopies(queryClient: QueryClient, ids: ReadonlySet<string>): Found[] {
  if (ids.size === 0) return [];
  const cache = queryClient.getQueryCache();
  const queries = [fileKeys.all, folderKeys.all, itemShareKeys.sharedWithMe()].flatMap((queryKey) => cache.findAll({ queryKey }));
  return queries.flatMap((query) =>
    dtosOf(query.state.data)
      .filter((dto) => ids.has(dto._id))
      .map((dto) => ({ type: typeOf(dto), dto })),
  );
}

/** What the account may do with the whole multi-selection. */
export interface SelectionAccess {
  /** Each item is the account's own, or inside a folder shared with it as editor (not the shared item itself). */
  canTrash: boolean;
  /** As for trash, and all of them are the account's own or all inside the same share (moves never leave a share). */
  canMove: boolean;
  /** The share the items are inside, when they came through one: the move popup stays within it. */
  share: SharedAccessDto | null;
}

/**
 * From each item's `shared` mark (absent on the account's own items); `fallback` for an item no cached list holds:
 * the mark of the folder on screen.
 */
export function selectionAccessOf(
  items: readonly MultiSelectItem[],
  sharedOf: (item: MultiSelectItem) => SharedAccessDto | undefined,
): SelectionAccess {
  const marks = items.map((item) => ({ item, shared: sharedOf(item) }));
  const canTrash = marks.every(({ item, shared }) => !shared || (shared.role === 'editor' && shared.rootId !== item.id));
  const share = marks[0]?.shared ?? null;
  const sameShare = marks.every(({ shared }) => (shared?.rootId ?? null) === (share?.rootId ?? null));
  return { canTrash, canMove: canTrash && sameShare, share: sameShare ? share : null };
}

/** What the account may do with `items`, from the lists that show them and the folder on screen. */
export function useSelectionAccess(items: readonly MultiSelectItem[]): SelectionAccess {
  const queryClient = useQueryClient();
  const openId = openFolderIdOf(useLocation().pathname);
  const openFolder = useQuery({
    queryKey: folderKeys.info(openId ?? '/'),
    queryFn: () => driveApi.folderInfo(openId!),
    enabled: openId !== null,
  });
  const copies = cachedCopies(queryClient, new Set(items.map((item) => item.id)));
  return selectionAccessOf(items, (item) => {
    const mine = copies.filter(({ type, dto }) => type === item.type && dto._id === item.id);
    if (mine.length === 0) return openId ? openFolder.data?.shared : undefined;
    // A shared item may also sit in a list without the mark (a stale answer); the mark wins.
    return mine.find(({ dto }) => dto.shared)?.dto.shared;
  });
}
