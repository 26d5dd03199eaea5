import type {
  CreateShareLinkBody,
  FileDto,
  DropOriginDto,
  ShareLinkDto,
  SharedLinkInfoDto,
  SharedListingDto,
  UpdateShareLinkBody,
} from '@nimbus/common';
import type { DetailedError } from 'tus-js-client';
import { getBrowserId } from './browser-id';
import { http } from './client';
import { CHUNK_BYTES, loadTus, RETRY_DELAYS } from './resumable-uploads.api';

/** The owner's links, all of them or one item's. */
export async function listShareLinks(itemId?: string): Promise<ShareLinkDto[]> {
  const { data } = await http.get<{ links: ShareLinkDto[] }>('/share-service/links', { params: itemId ? { itemId } : {} });
  return data.links;
}

export async function createShareLink(body: CreateShareLinkBody): Promise<ShareLinkDto> {
  const { data } = await http.post<ShareLinkDto>('/share-service/links', body);
  return data;
}

export async function updateShareLink(id: string, body: UpdateShareLinkBody): Promise<ShareLinkDto> {
  const { data } = await http.patch<ShareLinkDto>(`/share-service/links/${encodeURIComponent(id)}`, body);
  return data;
}

export async function revokeShareLink(id: string): Promise<void> {
  await http.delete(`/share-service/links/${encodeURIComponent(id)}`);
}

/** Files with a public or one-time file link (the share popup's). */
export async function listFileLinks(): Promise<FileDto[]> {
  const { data } = await http.get<FileDto[]>('/share-service/file-links');
  return data;
}

/** Who sent a file through a drop link; null for a file that did not come through one. */
export async function getDropOrigin(fileId: string): Promise<DropOriginDto | null> {
  try {
    const { data } = await http.get<DropOriginDto>(`/share-service/drops/${encodeURIComponent(fileId)}`);
    return data;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return null;
    throw err;
  }
}

/** The public address of a link. */
export const shareLinkUrl = (link: Pick<ShareLinkDto, 'token'>, origin = window.location.origin) => `${origin}/s/${link.token}`;

const base = (token: string) => `/share-service/public/${encodeURIComponent(token)}`;

export async function getSharedLink(token: string): Promise<SharedLinkInfoDto> {
  const { data } = await http.get<SharedLinkInfoDto>(base(token));
  return data;
}

export async function unlockSharedLink(token: string, password: string): Promise<SharedLinkInfoDto> {
  const { data } = await http.post<SharedLinkInfoDto>(`${base(token)}/unlock`, { password });
  return data;
}

export async function listSharedFolder(token: string, folder?: string, after?: string): Promise<SharedListingDto> {
  const params: Record<string, string> = {};
  if (folder) params.folder = folder;
  if (after) params.after = after;
  const { data } = await http.get<SharedListingDto>(`${base(token)}/list`, { params });
  return data;
}

export const sharedUrls = {
  thumbnail: (token: string, fileId: string) => `${base(token)}/files/${encodeURIComponent(fileId)}/thumbnail`,
  preview: (token: string, fileId: string) => `${base(token)}/files/${encodeURIComponent(fileId)}/preview`,
  download: (token: string, fileId: string) => `${base(token)}/files/${encodeURIComponent(fileId)}/download`,
  zip: (token: string, folder?: string) => `${base(token)}/zip${folder ? `?folder=${encodeURIComponent(folder)}` : ''}`,
  upload: (token: string) => `${base(token)}/upload`,
};

/**
 * Sends a big file through a drop link with the tus protocol, in pieces: network errors are
 * retried with back-off, and the same file chosen again after a reload continues from what the
 * server holds. Resolves when the file is stored; rejects with the server's message.
 */
export async function sendDropResumable(
  token: string,
  file: File,
  uploaderName: string,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const tus = await loadTus();
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(file, {
      endpoint: `${base(token)}/tus`,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: { filename: file.name, filetype: file.type, ...(uploaderName.trim() ? { name: uploaderName.trim() } : {}) },
      fingerprint: async () => ['nimbus-drop', token, file.name, file.size, file.lastModified].join('-'),
      removeFingerprintOnSuccess: true,
      onBeforeRequest: (request) => {
        request.setHeader('uuid', getBrowserId());
      },
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        return status === 0 || status === 409 || status === 423 || status === 429 || status >= 500;
      },
      onProgress: (sent, total) => onProgress(total > 0 ? sent / total : 1),
      onSuccess: () => resolve(),
      onError: (error) => {
        const body = (error as DetailedError).originalResponse?.getBody();
        let message = 'Upload failed';
        try {
          message = (JSON.parse(body ?? '') as { error?: string }).error ?? message;
        } catch {
          // Not an answer of the server (the network failed): keep the generic message.
        }
        reject(new Error(message));
      },
    });
    void upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    }, reject);
  });
}
