import type { FileDto, FolderDto } from '@nimbus/common';
import { http } from './client';

export interface UploadOptions {
  /** Called with the fraction of the request body sent so far (0-1). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** A file picked from a folder, with its path relative to the picked folder ("Trip/day 1/a.jpg"). */
export interface FolderUploadFile {
  file: File;
  path: string;
}

function progressHandler(onProgress?: (fraction: number) => void) {
  return onProgress
    ? (event: { loaded: number; total?: number }) => {
        if (event.total) onProgress(event.loaded / event.total);
      }
    : undefined;
}

/** POST /file-service/upload: the fields first and the file part last, as the server streams it. */
export async function uploadFile(file: File, parent: string, uploadId: string, options: UploadOptions = {}): Promise<FileDto> {
  const form = new FormData();
  form.append('filename', file.name);
  form.append('parent', parent);
  form.append('currentID', uploadId);
  form.append('size', String(file.size));
  form.append('file', file, file.name);
  const { data } = await http.post<FileDto>('/file-service/upload', form, {
    signal: options.signal,
    onUploadProgress: progressHandler(options.onProgress),
  });
  return data;
}

/** POST /folder-service/upload: one file-data part per file, then the files in the same order. */
export async function uploadFolder(
  files: FolderUploadFile[],
  parent: string,
  options: UploadOptions = {},
): Promise<{ files: FileDto[]; folders: FolderDto[] }> {
  const form = new FormData();
  form.append('parent', parent);
  form.append('total-files', String(files.length));
  files.forEach(({ file, path }, index) => {
    form.append('file-data', JSON.stringify({ name: file.name, size: file.size, type: file.type, path, index }));
  });
  files.forEach(({ file }) => form.append('file', file, file.name));
  const { data } = await http.post<{ files: FileDto[]; folders: FolderDto[] }>('/folder-service/upload', form, {
    signal: options.signal,
    onUploadProgress: progressHandler(options.onProgress),
  });
  return data;
}
