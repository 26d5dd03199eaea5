import type { FileDto, LinkType, LinkedFileDto } from '@nimbus/common';
import { http } from './client';

/** What the public download page may know about a shared file. */
export interface PublicFileInfo {
  _id: string;
  filename: string;
  length: number;
  uploadDate: string;
  metadata: { linkType: LinkType; size: number };
}

export type Permission = 'private' | LinkType;

const PATHS: Record<Permission, string> = {
  public: '/file-service/make-public',
  one: '/file-service/make-one',
  private: '/file-service/remove-link',
};

/** Makes the link public, one-time, or removes it; answers the updated file. */
export async function changeLink(id: string, permission: Permission): Promise<FileDto> {
  const url = `${PATHS[permission]}/${encodeURIComponent(id)}`;
  if (permission === 'private') return (await http.patch<FileDto>(url)).data;
  // The answer also carries the file at the top level; the nested one is kept, without the extra keys.
  return (await http.patch<LinkedFileDto>(url)).data.file;
}

export async function getPublicInfo(id: string, token: string): Promise<PublicFileInfo> {
  const { data } = await http.get<PublicFileInfo>(`/file-service/public/info/${encodeURIComponent(id)}/${encodeURIComponent(token)}`);
  return data;
}

export const publicDownloadUrl = (id: string, token: string) =>
  `/file-service/public/download/${encodeURIComponent(id)}/${encodeURIComponent(token)}`;

/** The address anyone can open to download a shared file. */
export const publicLinkOf = (file: Pick<FileDto, '_id' | 'metadata'>, origin = window.location.origin) =>
  file.metadata.link ? `${origin}/public-download/${encodeURIComponent(file._id)}/${encodeURIComponent(file.metadata.link)}` : '';
