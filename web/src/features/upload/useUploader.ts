import { TIMINGS } from '@nimbus/common';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { fileKeys, folderKeys } from '../../api/query-keys';
import { uploadFile, uploadFolder, type FolderUploadFile } from '../../api/uploads.api';
import { useAppDispatch } from '../../state/hooks';
import type { AppDispatch } from '../../state/store';
import { addUpload, cancelUpload, completeUpload, resetUploads, setUploadProgress } from '../../state/upload.slice';
import { createProgressThrottle } from './progress-throttle';
import { abortAllUploads, abortUpload, registerUpload, releaseUpload } from './upload-controllers';
import { uploadParentOf } from './upload-target';

let sequence = 0;
const newUploadId = () => `${Date.now().toString(36)}-${(++sequence).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

interface UploadJob {
  id: string;
  send: (signal: AbortSignal, onProgress: (fraction: number) => void) => Promise<unknown>;
  refetchFolders: boolean;
}

/** Runs one upload: throttled progress, completed on success, canceled (silently) on failure or abort. */
async function runUpload(job: UploadJob, dispatch: AppDispatch, queryClient: QueryClient): Promise<void> {
  const signal = registerUpload(job.id);
  const throttle = createProgressThrottle(TIMINGS.uploadProgressThrottleMs, (progress) =>
    dispatch(setUploadProgress({ id: job.id, progress })),
  );
  try {
    await job.send(signal, (fraction) => throttle.push(Math.round(fraction * 100)));
    throttle.stop();
    dispatch(completeUpload(job.id));
  } catch {
    throttle.stop();
    dispatch(cancelUpload(job.id));
  } finally {
    releaseUpload(job.id);
  }
  // Refetch even after a failure: a request cut off by the network may still have been stored.
  void queryClient.invalidateQueries({ queryKey: fileKeys.all });
  if (job.refetchFolders) void queryClient.invalidateQueries({ queryKey: folderKeys.all });
}

/** Starting, cancelling and clearing uploads into the folder on screen. */
export function useUploader() {
  const dispatch = useAppDispatch();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const parent = uploadParentOf(pathname);

  const uploadFiles = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const id = newUploadId();
        dispatch(addUpload({ id, name: file.name, type: 'file', size: file.size }));
        void runUpload(
          { id, refetchFolders: false, send: (signal, onProgress) => uploadFile(file, parent, id, { signal, onProgress }) },
          dispatch,
          queryClient,
        );
      }
    },
    [dispatch, queryClient, parent],
  );

  const uploadFolderFiles = useCallback(
    (files: FolderUploadFile[]) => {
      const id = newUploadId();
      const name = files[0]?.path.split('/')[0] || 'Folder';
      dispatch(addUpload({ id, name, type: 'folder', size: files.reduce((sum, f) => sum + f.file.size, 0) }));
      void runUpload(
        { id, refetchFolders: true, send: (signal, onProgress) => uploadFolder(files, parent, { signal, onProgress }) },
        dispatch,
        queryClient,
      );
    },
    [dispatch, queryClient, parent],
  );

  const cancel = useCallback(
    (id: string) => {
      abortUpload(id);
      dispatch(cancelUpload(id));
    },
    [dispatch],
  );

  /** Cancels every unfinished upload and empties the panel. */
  const cancelAllAndClear = useCallback(() => {
    abortAllUploads();
    dispatch(resetUploads());
  }, [dispatch]);

  return { uploadFiles, uploadFolder: uploadFolderFiles, cancel, cancelAllAndClear };
}
