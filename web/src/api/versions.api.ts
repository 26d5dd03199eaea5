import type { FileDto, FileVersionListDto, RestoreAsOfRequest, RestoreAsOfResultDto } from '@nimbus/common';
import { http } from './client';
import type { UploadOptions } from './uploads.api';

const base = (fileId: string) => `/file-service/versions/${encodeURIComponent(fileId)}`;
const versionPath = (fileId: string, versionId: string) => `${base(fileId)}/${encodeURIComponent(versionId)}`;

/** Where a version's bytes are served; `inline` lets images, video, audio and PDF show in the page. */
export const versionDownloadUrl = (fileId: string, versionId: string, inline = false) =>
  `${versionPath(fileId, versionId)}/download${inline ? '?inline=true' : ''}`;

export const versionsApi = {
  /** The current content first, then the kept versions, newest first. */
  list: (fileId: string) => http.get<FileVersionListDto>(base(fileId)).then((r) => r.data),
  /** The version becomes the file's content; the content it replaces is kept as a version in turn. */
  restore: (fileId: string, versionId: string) => http.post<FileDto>(`${versionPath(fileId, versionId)}/restore`).then((r) => r.data),
  remove: (fileId: string, versionId: string) => http.delete(versionPath(fileId, versionId)).then(() => undefined),
  /** Every file under the folder (`/`: the whole drive) back to its content at `at`. */
  restoreAsOf: (body: RestoreAsOfRequest) => http.post<RestoreAsOfResultDto>('/folder-service/restore-as-of', body).then((r) => r.data),
};

/** The file as it is now (after a resumable new version, whose last answer carries only its id). */
export const fileInfo = (fileId: string) => http.get<FileDto>(`/file-service/info/${encodeURIComponent(fileId)}`).then((r) => r.data);

/** POST /file-service/upload-version/:id: the picked file becomes the new content, the old one a version. */
export async function uploadVersion(fileId: string, file: File, options: UploadOptions = {}): Promise<FileDto> {
  const form = new FormData();
  form.append('file', file, file.name);
  const { data } = await http.post<FileDto>(`/file-service/upload-version/${encodeURIComponent(fileId)}`, form, {
    signal: options.signal,
    onUploadProgress: options.onProgress
      ? (event) => {
          if (event.total) options.onProgress?.(event.loaded / event.total);
        }
      : undefined,
  });
  return data;
}
