import { TIMINGS, type FileDto } from '@nimbus/common';
import type { QueryClient } from '@tanstack/react-query';
import { fileKeys, folderKeys, storageKeys } from '../../api/query-keys';
import { RESUMABLE_MIN_BYTES, startResumableUpload } from '../../api/resumable-uploads.api';
import { uploadFile, uploadFolder, type FolderUploadFile } from '../../api/uploads.api';
import { fileInfo, uploadVersion } from '../../api/versions.api';
import type { AppDispatch } from '../../state/store';
import { addUpload, cancelUpload, completeUpload, setUploadProgress } from '../../state/upload.slice';
import { organizeApi } from '../organize/organize.api';
import { directorySegments, ensureFolderPath, folderIdsByPath, planFolderUpload } from './folder-upload-plan';
import { createProgressThrottle } from './progress-throttle';
import { isQuotaExceeded, reportQuotaExceeded } from './storage-room';
import { registerResumable, registerUpload, releaseUpload } from './upload-controllers';

/** What an upload needs from the page that starts it. */
export interface UploadContext {
  dispatch: AppDispatch;
  queryClient: QueryClient;
  /** The signed-in account (resumable uploads are remembered per account). */
  owner: string;
}

let sequence = 0;
const newUploadId = () => `${Date.now().toString(36)}-${(++sequence).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

interface UploadJob {
  id: string;
  /** Bytes it sends, for the message when the quota refuses them. */
  size: number;
  /** The folder it goes into: a folder shared with the account is the owner's quota, not the account's. */
  into: string;
  send: (signal: AbortSignal, onProgress: (fraction: number) => void) => Promise<unknown>;
  refetchFolders: boolean;
}

/** Runs one upload: throttled progress, completed on success, canceled on failure or abort (silently, unless the quota refused it). */
async function runUpload(job: UploadJob, { dispatch, queryClient }: UploadContext): Promise<void> {
  const signal = registerUpload(job.id);
  const throttle = createProgressThrottle(TIMINGS.uploadProgressThrottleMs, (progress) =>
    dispatch(setUploadProgress({ id: job.id, progress })),
  );
  try {
    await job.send(signal, (fraction) => throttle.push(Math.round(fraction * 100)));
    throttle.stop();
    dispatch(completeUpload(job.id));
  } catch (error) {
    throttle.stop();
    dispatch(cancelUpload(job.id));
    if (isQuotaExceeded(error)) void reportQuotaExceeded(queryClient, job.size, job.into);
  } finally {
    releaseUpload(job.id);
  }
  // Refetch even after a failure: a request cut off by the network may still have been stored.
  void queryClient.invalidateQueries({ queryKey: fileKeys.all });
  void queryClient.invalidateQueries({ queryKey: storageKeys.all });
  if (job.refetchFolders) void queryClient.invalidateQueries({ queryKey: folderKeys.all });
}

/** One file into folder `into`: big ones resumably (pausable, retried), small ones in one POST. */
function startFile(context: UploadContext, file: File, into: string): void {
  const id = newUploadId();
  const resumable = file.size >= RESUMABLE_MIN_BYTES;
  context.dispatch(addUpload({ id, name: file.name, type: 'file', size: file.size, ...(resumable ? { resumable } : {}) }));
  const send: UploadJob['send'] = resumable
    ? (_signal, onProgress) => {
        const upload = startResumableUpload(context.owner, file, into, onProgress);
        registerResumable(id, upload);
        return upload.done;
      }
    : (signal, onProgress) => uploadFile(file, into, id, { signal, onProgress });
  void runUpload({ id, size: file.size, into, refetchFolders: false, send }, context);
}

export function uploadFiles(context: UploadContext, files: File[], into: string): void {
  for (const file of files) startFile(context, file, into);
}

/**
 * A picked folder: its small files and its tree in one `POST /folder-service/upload` (one row), then each big file
 * resumably into its folder (a row each, made here when only big files live in it).
 */
export function uploadFolderFiles(context: UploadContext, files: FolderUploadFile[], into: string): void {
  const id = newUploadId();
  const name = files[0]?.path.split('/')[0] || 'Folder';
  const { small, large } = planFolderUpload(files);
  const size = small.reduce((sum, f) => sum + f.file.size, 0);
  context.dispatch(addUpload({ id, name, type: 'folder', size }));
  const send: UploadJob['send'] = async (signal, onProgress) => {
    const made = small.length > 0 ? await uploadFolder(small, into, { signal, onProgress }) : { folders: [] };
    const known = folderIdsByPath(made.folders, into);
    for (const { file, path } of large) {
      if (signal.aborted) throw new Error('canceled');
      startFile(context, file, await ensureFolderPath(directorySegments(path), into, known, organizeApi.createFolder));
    }
  };
  void runUpload({ id, size, into, refetchFolders: true, send }, context);
}

/** A new content for file `fileId` (one row named after the picked file); settles with the file as it is now, or null. */
export async function uploadNewVersion(context: UploadContext, file: File, fileId: string, into: string): Promise<FileDto | null> {
  const id = newUploadId();
  let stored: FileDto | null = null;
  // Big ones resumably, as new files go: a dropped connection costs one piece, and the row can pause.
  const resumable = file.size >= RESUMABLE_MIN_BYTES;
  context.dispatch(addUpload({ id, name: file.name, type: 'file', size: file.size, ...(resumable ? { resumable } : {}) }));
  const send: UploadJob['send'] = resumable
    ? async (_signal, onProgress) => {
        const upload = startResumableUpload(context.owner, file, into, onProgress, fileId);
        registerResumable(id, upload);
        await upload.done;
        stored = await fileInfo(fileId);
      }
    : async (signal, onProgress) => {
        stored = await uploadVersion(fileId, file, { signal, onProgress });
      };
  await runUpload({ id, size: file.size, into, refetchFolders: false, send }, context);
  return stored;
}
