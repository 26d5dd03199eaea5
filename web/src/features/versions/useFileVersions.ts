import type { FileDto } from '@nimbus/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useStore } from 'react-redux';
import { fileKeys, storageKeys } from '../../api/query-keys';
import { versionsApi } from '../../api/versions.api';
import { setMainSelect } from '../../state/selection.slice';
import type { AppStore } from '../../state/store';
import { toast } from '../notifications/toast';

export const VERSION_MESSAGES = {
  restored: 'Version restored',
  errorRestoring: 'Error restoring version',
  deleted: 'Version deleted',
  errorDeleting: 'Error deleting version',
} as const;

/** A file's versions, and restoring or deleting one; the lists, the storage use and the selected file follow. */
export function useFileVersions(file: FileDto) {
  const queryClient = useQueryClient();
  const store = useStore() as AppStore;
  const versions = useQuery({ queryKey: fileKeys.versions(file._id), queryFn: () => versionsApi.list(file._id) });

  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: fileKeys.all }), queryClient.invalidateQueries({ queryKey: storageKeys.all })]);

  const restore = useMutation({
    mutationFn: (versionId: string) => versionsApi.restore(file._id, versionId),
    onSuccess: (restored) => {
      toast.success(VERSION_MESSAGES.restored);
      const main = store.getState().selection.mainSection;
      // The details panel draws the file as it was selected: it shows the restored size.
      if (main.file?._id === restored._id) store.dispatch(setMainSelect({ ...main, file: restored }));
    },
    onError: () => toast.error(VERSION_MESSAGES.errorRestoring),
    onSettled: refresh,
  });

  const remove = useMutation({
    mutationFn: (versionId: string) => versionsApi.remove(file._id, versionId),
    onSuccess: () => toast.success(VERSION_MESSAGES.deleted),
    onError: () => toast.error(VERSION_MESSAGES.errorDeleting),
    onSettled: refresh,
  });

  return { versions, restore, remove };
}
