import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { resetPopupSelect, setPopupSelect } from '../../state/selection.slice';
import type { AppStore } from '../../state/store';
import { cachedFile } from '../preview/preview-siblings';

/**
 * Keeps the open preview or details popup in step with the lists: a renamed or re-shared file shows its
 * new state, and a file that left the lists it was in (trashed, deleted) closes its popup.
 */
export function usePopupFileSync(): void {
  const queryClient = useQueryClient();
  const store = useStore() as AppStore;
  const dispatch = useAppDispatch();
  const popupId = useAppSelector((state) => state.selection.popupModal.file?._id);
  /** The popup's file, while some cached list holds it. */
  const listedId = useRef<string | null>(null);

  useEffect(() => {
    listedId.current = popupId && cachedFile(queryClient, popupId) ? popupId : null;
  }, [popupId, queryClient]);

  useEffect(() => {
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      const { popupModal } = store.getState().selection;
      const file = popupModal.file;
      if (!file) return;
      const fresh = cachedFile(queryClient, file._id);
      if (fresh) {
        listedId.current = file._id;
        if (JSON.stringify(fresh) !== JSON.stringify(file)) dispatch(setPopupSelect({ ...popupModal, file: fresh }));
      } else if (listedId.current === file._id) {
        listedId.current = null;
        dispatch(resetPopupSelect());
      }
    });
  }, [queryClient, store, dispatch]);
}
