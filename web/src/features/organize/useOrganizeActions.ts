import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { fileKeys, folderKeys } from '../../api/query-keys';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import type { OrganizeItem } from '../../state/organize.slice';
import { resetMultiSelect, resetSelected, setMainSelect } from '../../state/selection.slice';
import { progressToast } from '../notifications/progress-toast';
import { toast } from '../notifications/toast';
import { ORGANIZE_MESSAGES as M } from './messages';
import { organizeApi } from './organize.api';

type Ref = Pick<OrganizeItem, 'type' | 'id'> & Partial<OrganizeItem>;

interface Messages {
  pending: string;
  success: string;
  error: string;
}

const MOVE_MESSAGES: Record<'file' | 'folder' | 'multi', Messages> = {
  file: { pending: M.movingFile, success: M.fileMoved, error: M.errorMovingFile },
  folder: { pending: M.movingFolder, success: M.folderMoved, error: M.errorMovingFolder },
  multi: { pending: M.movingItems, success: M.itemsMoved, error: M.errorMovingItems },
};

/** The folder a browser route shows, if any (`/folder/{id}` or `/folder-trash/{id}`). */
function openFolderOf(pathname: string): { id: string; inTrash: boolean } | null {
  const match = /^\/(folder|folder-trash)\/([^/]+)/.exec(pathname);
  return match?.[2] ? { id: decodeURIComponent(match[2]), inTrash: match[1] === 'folder-trash' } : null;
}

/** Create, rename, trash, restore, delete and move, each with its progress, success and error toasts; lists refresh afterwards. */
export function useOrganizeActions() {
  const queryClient = useQueryClient();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const main = useAppSelector((state) => state.selection.mainSection);

  const refresh = useCallback(
    () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: fileKeys.all }), queryClient.invalidateQueries({ queryKey: folderKeys.all })]),
    [queryClient],
  );

  const run = useCallback(
    async (messages: Messages, call: () => Promise<unknown>): Promise<boolean> => {
      const progress = progressToast(messages.pending);
      try {
        await call();
        progress.success(messages.success);
        return true;
      } catch {
        progress.error(messages.error);
        return false;
      } finally {
        void refresh();
      }
    },
    [refresh],
  );

  /** After items left the list they were in: clear the selection, and leave the open folder if it went. */
  const afterRemoval = useCallback(
    (items: readonly Ref[], leaveTo: (item: Ref, inTrash: boolean) => string) => {
      dispatch(resetMultiSelect());
      if (items.some((item) => item.id === main.id)) dispatch(resetSelected());
      const open = openFolderOf(pathname);
      const gone = open && items.find((item) => item.type === 'folder' && item.id === open.id);
      if (open && gone) void navigate(leaveTo(gone, open.inTrash));
    },
    [dispatch, main.id, navigate, pathname],
  );

  return useMemo(
    () => ({
      createFolder: async (name: string, parent: string) => {
        try {
          await organizeApi.createFolder(name, parent);
        } catch {
          toast.error(M.errorCreatingFolder);
        }
        await refresh();
      },
      rename: (item: OrganizeItem, title: string) =>
        run({ pending: M.renaming, success: M.renamed, error: M.errorRenaming }, async () => {
          const renamed = await organizeApi.rename(item, title);
          if (main.id === item.id && main.type !== '') {
            dispatch(
              setMainSelect(
                item.type === 'folder'
                  ? { ...main, folder: renamed as typeof main.folder }
                  : { ...main, file: renamed as typeof main.file },
              ),
            );
          }
        }),
      trash: async (items: readonly Ref[]) => {
        const done = await run({ pending: M.trashing, success: M.trashed, error: M.errorTrashing }, () => organizeApi.trash(items));
        if (done) afterRemoval(items, (item) => (item.parent && item.parent !== '/' ? `/folder/${item.parent}` : '/home'));
      },
      restore: async (items: readonly Ref[]) => {
        const done = await run({ pending: M.restoring, success: M.restored, error: M.errorRestoring }, () => organizeApi.restore(items));
        if (done) afterRemoval(items, (item) => `/folder/${item.id}`);
      },
      remove: async (items: readonly Ref[]) => {
        const done = await run({ pending: M.deleting, success: M.deleted, error: M.errorDeleting }, () => organizeApi.remove(items));
        if (done) afterRemoval(items, () => '/trash');
      },
      move: async (items: readonly Ref[], parentID: string, multi: boolean) => {
        const kind = multi ? 'multi' : (items[0]?.type ?? 'file');
        const done = await run(MOVE_MESSAGES[kind], () => organizeApi.move(items, parentID, multi));
        if (done) {
          dispatch(resetMultiSelect());
          if (items.some((item) => item.id === main.id)) dispatch(resetSelected());
        }
        return done;
      },
    }),
    [run, refresh, afterRemoval, main, dispatch],
  );
}
