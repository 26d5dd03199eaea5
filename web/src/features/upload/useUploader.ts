import { TIMINGS } from '@nimbus/common';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { fileKeys, folderKeys } from '../../api/query-keys';
import { uploadFile, uploadFolder, type FolderUploadFile } from '../../api/uploads.api';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import type { AppDispatch } from '../../state/store';
import { RESUMABLE_MIN_BYTES, startResumableUpload } from '../../api/resumable-uploads.api';
import { addUpload, cancelUpload, completeUpload, resetUploads, setUploadPaused, setUploadProgress } from '../../state/upload.slice';
import { createProgressThrottle } from './progress-throttle';
import { abortAllUploads, abortUpload, registerResumable, registerUpload, releaseUpload, resumableOf } from './upload-controllers';
import { uploadParentOf } from './upload-target';
import { directorySegments, ensureFolderPath, folderIdsByPath, planFolderUpload } from './folder-upload-plan';
import { organizeApi } from '../organize/organize.api';

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

  const owner = useAppSelector((state) => state.user.user?._id ?? '');

  /** One file into folder `into`: big ones resumably (pausable, retried), small ones in one POST. */
  const startFile = useCallback(
    (file: File, into: string) => {
      const id = newUploadId();
      const resumable = file.size >= RESUMABLE_MIN_BYTES;
      dispatch(addUpload({ id, name: file.name, type: 'file', size: file.size, ...(resumable ? { resumable } : {}) }));
      const send: UploadJob['send'] = resumable
        ? (_signal, onProgress) => {
            const upload = startResumableUpload(owner, file, into, onProgress);
            registerResumable(id, upload);
            return upload.done;
          }
        : (signal, onProgress) => uploadFile(file, into, id, { signal, onProgress });
      void runUpload({ id, refetchFolders: false, send }, dispatch, queryClient);
    },
    [dispatch, queryClient, owner],
  );

  const uploadFiles = useCallback(
    /** `into`: the folder of an interrupted upload being resumed, rather than the one on screen. */
    (files: File[], into: string = parent) => {
      for (const file of files) startFile(file, into);
    },
    [startFile, parent],
  );

  /**
   * A picked folder: its small files and its tree in SPEC's one POST (one row), then each big file
   * resumably into its folder (a row each, made here when only big files live in it).
   */
  const uploadFolderFiles = useCallback(
    (files: FolderUploadFile[]) => {
      const id = newUploadId();
      const name = files[0]?.path.split('/')[0] || 'Folder';
      const { small, large } = planFolderUpload(files);
      const into = parent;
      dispatch(addUpload({ id, name, type: 'folder', size: small.reduce((sum, f) => sum + f.file.size, 0) }));
      const send: UploadJob['send'] = async (signal, onProgress) => {
        const made = small.length > 0 ? await uploadFolder(small, into, { signal, onProgress }) : { folders: [] };
        const known = folderIdsByPath(made.folders, into);
        for (const { file, path } of large) {
          if (signal.aborted) throw new Error('canceled');
          startFile(file, await ensureFolderPath(directorySegments(path), into, known, organizeApi.createFolder));
        }
      };
      void runUpload({ id, refetchFolders: true, send }, dispatch, queryClient);
    },
    [dispatch, queryClient, parent, startFile],
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

  return { uploadFiles, uploadFolder: uploadFolderFiles, cancel, setPaused, cancelAllAndClear };
}
