import { LIMITS, type FileDto, type MediaFilter, type SortOrder } from '@nimbus/common';
import { http } from './client';

export interface MediaListParams {
  mediaFilter: MediaFilter;
  sortBy: SortOrder;
  search: string;
}

/** The paging cursor: the last file's upload date and name, plus its id as tie-breaker. */
export interface ListCursor {
  startAtDate: string;
  startAtName: string;
  startAtId: string;
}

export const cursorAfter = (file: FileDto): ListCursor => ({
  startAtDate: file.uploadDate,
  startAtName: file.filename,
  startAtId: file._id,
});

/** One page (100) of photos and videos across the drive. */
export async function listMedia(params: MediaListParams, cursor?: ListCursor): Promise<FileDto[]> {
  const { data } = await http.get<FileDto[]>('/file-service/list', {
    params: {
      mediaMode: true,
      mediaFilter: params.mediaFilter,
      sortBy: params.sortBy,
      limit: LIMITS.mediaPageSize,
      ...(params.search ? { search: params.search } : {}),
      ...(cursor ? { startAt: true, ...cursor } : {}),
    },
  });
  return data;
}

export const thumbnailUrl = (thumbnailID: string) => `/file-service/thumbnail/${encodeURIComponent(thumbnailID)}`;
export const fullImageUrl = (id: string) => `/file-service/full-thumbnail/${encodeURIComponent(id)}`;
export const streamVideoUrl = (id: string) => `/file-service/stream-video/${encodeURIComponent(id)}`;

/** Sets the cookie that lets a <video> element stream without the access token. */
export async function getStreamToken(): Promise<void> {
  await http.get('/file-service/download/access-token-stream-video');
}

export async function removeStreamToken(): Promise<void> {
  await http.delete('/file-service/remove-stream-video-token');
}

/** `original`: plays as stored; `preparing`: a playable copy is being made; `ready`: the stream serves it; `failed`/`off`: there is none. */
export type VideoPlaybackState = 'original' | 'preparing' | 'ready' | 'failed' | 'off';

export async function getVideoInfo(id: string): Promise<{ state: VideoPlaybackState }> {
  const { data } = await http.get<{ state: VideoPlaybackState }>(`/file-service/video-info/${encodeURIComponent(id)}`);
  return data;
}
