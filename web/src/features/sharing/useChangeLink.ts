import type { FileDto } from '@nimbus/common';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useStore } from 'react-redux';
import { fileKeys } from '../../api/query-keys';
import { changeLink, type Permission } from '../../api/sharing.api';
import { useAppDispatch } from '../../state/hooks';
import { setMainSelect, setPopupSelect, setShareSelected } from '../../state/selection.slice';
import type { AppStore } from '../../state/store';
import { progressToast } from '../notifications/progress-toast';
import { FILE_MESSAGES } from '../popups/file-messages';

/** Changes a file's link with its progress toasts, then refreshes the lists and every popup showing the file. */
export function useChangeLink() {
  const dispatch = useAppDispatch();
  const store = useStore() as AppStore;
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  const showUpdated = (updated: FileDto) => {
    const { selection } = store.getState();
    if (selection.shareModal.file?._id === updated._id) dispatch(setShareSelected(updated));
    if (selection.popupModal.file?._id === updated._id) dispatch(setPopupSelect({ ...selection.popupModal, file: updated }));
    if (selection.mainSection.file?._id === updated._id) dispatch(setMainSelect({ ...selection.mainSection, file: updated }));
  };

  const change = async (file: FileDto, permission: Permission) => {
    const removing = permission === 'private';
    setPending(true);
    const progress = progressToast(removing ? FILE_MESSAGES.removingLink : FILE_MESSAGES.makingPublic);
    try {
      const updated = await changeLink(file._id, permission);
      progress.success(removing ? FILE_MESSAGES.linkRemoved : FILE_MESSAGES.publicLinkGenerated);
      showUpdated(updated);
    } catch {
      progress.error(removing ? FILE_MESSAGES.errorRemovingLink : FILE_MESSAGES.errorMakingPublic);
    } finally {
      setPending(false);
      void queryClient.invalidateQueries({ queryKey: fileKeys.all });
    }
  };

  return { change, pending };
}
