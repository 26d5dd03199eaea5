import { getBrowserId } from './browser-id';
import { http, refreshSession } from './client';
import { downloadUrl } from './drive.api';

/** The bytes of a file, or of its first `limit` bytes, read with the session as a download is. */
export interface FileHead {
  bytes: Uint8Array;
  /** The file is longer than what was read. */
  truncated: boolean;
}

async function get(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  const send = () => fetch(url, { credentials: 'same-origin', headers: { ...headers, uuid: getBrowserId() }, signal });
  let response = await send();
  if (response.status === 401) {
    await refreshSession();
    response = await send();
  }
  if (!response.ok) throw new Error(`The file could not be read (${response.status})`);
  return response;
}

/** The first `limit` bytes of a file (a Range request), and whether there is more. */
export async function readFileHead(fileId: string, limit: number, signal?: AbortSignal): Promise<FileHead> {
  const response = await get(downloadUrl(fileId), { Range: `bytes=0-${limit - 1}` }, signal);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const total = Number(response.headers.get('content-range')?.split('/')[1]);
  const truncated = response.status === 206 ? Number.isFinite(total) && total > bytes.length : bytes.length > limit;
  return { bytes: bytes.length > limit ? bytes.subarray(0, limit) : bytes, truncated };
}

/** A whole file's bytes. */
export async function readFile(fileId: string, signal?: AbortSignal): Promise<Uint8Array> {
  const response = await get(downloadUrl(fileId), {}, signal);
  return new Uint8Array(await response.arrayBuffer());
}

export interface AudioInfo {
  title: string | null;
  artist: string | null;
  album: string | null;
  durationSeconds: number | null;
  hasCover: boolean;
}

/** The title, artist, album, duration and cover art an audio file's tags give. */
export async function getAudioInfo(fileId: string): Promise<AudioInfo> {
  const { data } = await http.get<AudioInfo>(`/file-service/audio-info/${encodeURIComponent(fileId)}`);
  return data;
}
