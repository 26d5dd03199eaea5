import type { FileDto } from '@nimbus/common';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useStore } from 'react-redux';
import { lazyModule } from '../../components/lazy-module';
import { pickFile } from '../../components/pick-file';
import { setMainSelect } from '../../state/selection.slice';
import type { AppStore } from '../../state/store';

const runner = lazyModule(() => import('./upload-runner'));

/**
 * "Upload new version": picks a file and sends it as the file's new content, with its row in the upload
 * panel. No quota check first: the server makes room by letting the oldest versions go, and says when it cannot.
 */
export function useVersionUpload() {
  const queryClient = useQueryClient();
  const store = useStore() as AppStore;

  return useCallback(
    async (target: FileDto): Promise<FileDto | null> => {
      const picked = await pickFile(`New version of ${target.filename}`);
      if (!picked) return null;
      const { dispatch, getState } = store;
      const owner = getState().user.user?._id ?? '';
      const run = await runner.load();
      const stored = await run.uploadNewVersion({ dispatch, queryClient, owner }, picked, target._id, target.metadata.parent);
      const main = store.getState().selection.mainSection;
      // The details panel draws the selected file as it was picked: it shows the new size and date.
      if (stored && main.file?._id === stored._id) dispatch(setMainSelect({ ...main, file: stored }));
      return stored;
    },
    [queryClient, store],
  );
}
