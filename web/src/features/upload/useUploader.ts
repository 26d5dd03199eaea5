import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import type { FolderUploadFile } from '../../api/uploads.api';
import { lazyModule } from '../../components/lazy-module';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { cancelUpload, resetUploads, setUploadPaused } from '../../state/upload.slice';
import { useOpenFolderAccess } from '../item-shares/useFolderAccess';
import { ensureStorageRoom } from './storage-room';
import { abortAllUploads, abortUpload, resumableOf } from './upload-controllers';
import { uploadParentOf } from './upload-target';

/** What sends uploads (requests, tus, folder plans) is not needed to draw a page: it loads with the first upload. */
const runner = lazyModule(() => import('./upload-runner'));

const totalSize = (files: File[]) => files.reduce((sum, file) => sum + file.size, 0);

/** Starting, cancelling and clearing uploads into the folder on screen. */
export function useUploader() {
  const dispatch = useAppDispatch();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const parent = uploadParentOf(pathname);
  // Into a folder shared with the account the bytes count against the owner's quota, which only the server knows.
  const checksQuota = useOpenFolderAccess().role === 'owner';

  const owner = useAppSelector((state) => state.user.user?._id ?? '');

  const uploadFiles = useCallback(
    /**
     * `into`: the folder of an interrupted upload being resumed, rather than the one on screen. A
     * resumed upload is not checked against the quota: the server counts its bytes already.
     */
    (files: File[], into?: string) => {
      const start = () => runner.load().then((run) => run.uploadFiles({ dispatch, queryClient, owner }, files, into ?? parent));
      if (into !== undefined || !checksQuota) void start();
      else
        void ensureStorageRoom(queryClient, totalSize(files)).then((fits) => {
          if (fits) void start();
        });
    },
    [dispatch, queryClient, owner, parent, checksQuota],
  );

  const uploadFolder = useCallback(
    (files: FolderUploadFile[]) => {
      const start = () => runner.load().then((run) => run.uploadFolderFiles({ dispatch, queryClient, owner }, files, parent));
      if (!checksQuota) return void start();
      void ensureStorageRoom(queryClient, totalSize(files.map((f) => f.file))).then((fits) => {
        if (fits) void start();
      });
    },
    [dispatch, queryClient, owner, parent, checksQuota],
  );

  const cancel = useCallback(
    (id: string) => {
      abortUpload(id);
      dispatch(cancelUpload(id));
    },
    [dispatch],
  );

  /** Pauses or resumes a resumable upload; the server keeps what it has meanwhile. */
  const setPaused = useCallback(
    (id: string, paused: boolean) => {
      const upload = resumableOf(id);
      if (!upload) return;
      if (paused) void upload.pause();
      else upload.resume();
      dispatch(setUploadPaused({ id, paused }));
    },
    [dispatch],
  );

  /** Cancels every unfinished upload and empties the panel. */
  const cancelAllAndClear = useCallback(() => {
    abortAllUploads();
    dispatch(resetUploads());
  }, [dispatch]);

  return { uploadFiles, uploadFolder, cancel, setPaused, cancelAllAndClear };
}
