import type { LinkType } from '@nimbus/common';

export type LinkLabel = 'Temporary' | 'Public' | 'Private';

/** How a file's link is named in the popups: 'one' is Temporary, 'public' Public, none Private. */
export function linkTypeLabel(linkType: LinkType | undefined): LinkLabel {
  return linkType === 'one' ? 'Temporary' : linkType === 'public' ? 'Public' : 'Private';
}

/** Copies text to the clipboard, falling back to a selection copy where the Clipboard API is missing. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Fall through to the selection copy below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}
