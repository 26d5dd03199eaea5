import { refreshSession } from './client';
import { downloadUrl, zipDownloadUrl } from './drive.api';
import { versionDownloadUrl } from './versions.api';

/** Lets the browser download a URL of this origin (authenticated by the session cookies it refreshes first). */
async function downloadFrom(url: string): Promise<void> {
  try {
    await refreshSession();
  } catch {
    return;
  }
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** One file as it is; anything else (folders, several items) as one zip. */
export function downloadItems(items: readonly { type: 'file' | 'folder'; id: string }[]): Promise<void> {
  const [only] = items;
  if (items.length === 1 && only?.type === 'file') return downloadFrom(downloadUrl(only.id));
  const folders = items.filter((item) => item.type === 'folder').map((item) => item.id);
  const files = items.filter((item) => item.type === 'file').map((item) => item.id);
  return downloadFrom(zipDownloadUrl(folders, files));
}

/** An earlier content of a file, under the file's name. */
export function downloadVersion(fileId: string, versionId: string): Promise<void> {
  return downloadFrom(versionDownloadUrl(fileId, versionId));
}

/** The signed-in user's whole drive (trash excluded) as one zip. */
export const EXPORT_DRIVE_URL = '/user-service/export';

export function exportDrive(): Promise<void> {
  return downloadFrom(EXPORT_DRIVE_URL);
}
