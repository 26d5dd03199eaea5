import type { FileDto, FolderDto, SortOrder, SuggestedListResponse } from '@nimbus/common';
import { http } from './client';

export const ROOT = '/';

export interface FileCursor {
  startAtDate: string;
  startAtName: string;
  /** Tie-breaker among files with the same date or name: the last file's id. */
  startAtId: string;
}

export interface FileListParams {
  parent: string;
  search: string;
  sortBy: SortOrder;
  limit: number;
  trashMode: boolean;
}

export interface FolderListParams {
  parent: string;
  search: string;
  sortBy: SortOrder;
  trashMode: boolean;
}

/** Only the query parameters that carry something, booleans as 'true'. */
function paramsOf(values: Record<string, string | number | boolean | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === '' || value === false) continue;
    out[key] = String(value);
  }
  return out;
}

/** The /file-service and /folder-service reads of the file browser. */
export const driveApi = {
  listFiles: (params: FileListParams, cursor?: FileCursor) =>
    http
      .get<FileDto[]>('/file-service/list', {
        params: paramsOf({
          parent: params.parent,
          search: params.search,
          sortBy: params.sortBy,
          limit: params.limit,
          trashMode: params.trashMode,
          ...(cursor ? { startAt: true, ...cursor } : {}),
        }),
      })
      .then((r) => r.data),
  quickList: (limit: number) => http.get<FileDto[]>('/file-service/quick-list', { params: { limit } }).then((r) => r.data),
  suggested: (search: string, trashMode: boolean, mediaMode: boolean) =>
    http
      .get<SuggestedListResponse>('/file-service/suggested-list', { params: paramsOf({ search, trashMode, mediaMode }) })
      .then((r) => r.data),
  listFolders: (params: FolderListParams) =>
    http
      .get<FolderDto[]>('/folder-service/list', {
        params: paramsOf({ parent: params.parent, search: params.search, sortBy: params.sortBy, trashMode: params.trashMode }),
      })
      .then((r) => r.data),
  folderInfo: (id: string) => http.get<FolderDto>(`/folder-service/info/${encodeURIComponent(id)}`).then((r) => r.data),
  moveFolderList: (params: { parent: string; search: string; folderIDs: string[]; currentParent?: string }) =>
    http
      .get<FolderDto[]>('/folder-service/move-folder-list', {
        // Arrays go out as repeated `folderIDs[]` items.
        params: {
          ...paramsOf({ parent: params.parent, search: params.search, currentParent: params.currentParent }),
          folderIDs: params.folderIDs,
        },
      })
      .then((r) => r.data),
};

/** Where a file's small thumbnail image is served (authenticated by the session cookie). */
export const thumbnailUrl = (thumbnailID: string) => `/file-service/thumbnail/${encodeURIComponent(thumbnailID)}`;

export const downloadUrl = (fileId: string) => `/file-service/download/${encodeURIComponent(fileId)}`;

/** One zip of several files and whole folders. */
export function zipDownloadUrl(folderIDs: readonly string[], fileIDs: readonly string[]): string {
  const query = new URLSearchParams();
  for (const id of folderIDs) query.append('folderIDs[]', id);
  for (const id of fileIDs) query.append('fileIDs[]', id);
  return `/folder-service/download-zip?${query.toString()}`;
}
