import type { ShareLinkDto } from '@nimbus/common';
import { formatBytes } from '../format/format-size';
import { formatDateTime } from '../format/format-date';

/** A link's options in a few words: "Password · until 12/01/2026 · 2/5 downloads · view only". */
export function linkSummary(link: ShareLinkDto): string {
  const parts: string[] = [link.kind === 'drop' ? 'Upload only' : 'View'];
  if (link.hasPassword) parts.push('password');
  if (link.expiresAt) parts.push(`until ${formatDateTime(link.expiresAt)}`);
  if (link.kind === 'view') {
    parts.push(link.maxDownloads === null ? `${link.downloads} downloads` : `${link.downloads}/${link.maxDownloads} downloads`);
    if (!link.allowDownload) parts.push('no download');
  } else {
    parts.push(link.maxFiles === null ? `${link.filesReceived} files received` : `${link.filesReceived}/${link.maxFiles} files received`);
    if (link.maxFileBytes !== null) parts.push(`up to ${formatBytes(link.maxFileBytes)} each`);
  }
  return parts.join(' · ');
}
