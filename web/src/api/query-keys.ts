/** Every TanStack Query key of the app comes from here. */
export const userKeys = {
  all: ['user'] as const,
  detailed: () => [...userKeys.all, 'detailed'] as const,
};

/** The account's app passwords (WebDAV and other clients). */
export const appPasswordKeys = {
  all: ['app-passwords'] as const,
};

/** File lists (home, folder, search, trash, media) and single files. Invalidate `all` after any change to files. */
export const fileKeys = {
  all: ['files'] as const,
  list: (params: Record<string, unknown>) => [...fileKeys.all, 'list', params] as const,
  quickList: () => [...fileKeys.all, 'quick-list'] as const,
  info: (id: string) => [...fileKeys.all, 'info', id] as const,
  suggested: (params: Record<string, unknown>) => [...fileKeys.all, 'suggested', params] as const,
  /** A file's content history: under `all`, so whatever refreshes the files after a change refreshes it too. */
  versions: (id: string) => [...fileKeys.all, 'versions', id] as const,
};

/** Folder lists, folder info and move-dialog lists. Invalidate `all` after any change to folders. */
export const folderKeys = {
  all: ['folders'] as const,
  list: (params: Record<string, unknown>) => [...folderKeys.all, 'list', params] as const,
  info: (id: string) => [...folderKeys.all, 'info', id] as const,
  moveList: (params: Record<string, unknown>) => [...folderKeys.all, 'move-list', params] as const,
};

/** Public (signed-out) file info for the public download page. */
export const publicKeys = {
  info: (id: string, token: string) => ['public', id, token] as const,
};

/** The owner's share links: all of them, or one item's. Invalidate `all` after any change to a link. */
export const shareLinkKeys = {
  all: ['share-links'] as const,
  list: (itemId?: string) => [...shareLinkKeys.all, 'list', itemId ?? null] as const,
  dropOrigin: (fileId: string) => [...shareLinkKeys.all, 'drop-origin', fileId] as const,
  /** The share popup's public and one-time file links; they change with the files, so they also live under `fileKeys.all`. */
  fileLinks: () => ['files', 'share-links'] as const,
};

/** What a visitor of a link sees. */
export const sharedKeys = {
  all: (token: string) => ['shared', token] as const,
  info: (token: string) => [...sharedKeys.all(token), 'info'] as const,
  listing: (token: string, folder: string | null) => [...sharedKeys.all(token), 'list', folder] as const,
};

/** The account's security log (Settings → Recent activity), paged by cursor. */
export const activityKeys = {
  all: ['activity'] as const,
};

/** The admin area: accounts, server settings, overview. Invalidate `all` after any change to an account. */
export const adminKeys = {
  all: ['admin'] as const,
  users: (params: Record<string, unknown>) => [...adminKeys.all, 'users', params] as const,
  settings: () => [...adminKeys.all, 'settings'] as const,
  overview: () => [...adminKeys.all, 'overview'] as const,
};

/** Invitations the account sent, and the public preview of one link. */
export const invitationKeys = {
  all: ['invitations'] as const,
  list: () => [...invitationKeys.all, 'list'] as const,
  preview: (token: string) => ['invitation-preview', token] as const,
};

/** The account's storage use against its quota (Settings → Storage, the check before uploads). */
export const storageKeys = {
  all: ['storage'] as const,
};

/** Shares between accounts: who an item is shared with (owner's view), and what is shared with me. */
export const itemShareKeys = {
  all: ['item-shares'] as const,
  forItem: (itemType: 'file' | 'folder', itemId: string) => [...itemShareKeys.all, 'item', itemType, itemId] as const,
  sharedWithMe: () => [...itemShareKeys.all, 'shared-with-me'] as const,
};

/** People in photos: the setting, the people, one person and their faces. Their photos are file lists (`fileKeys.list`). */
export const peopleKeys = {
  all: ['people'] as const,
  settings: () => [...peopleKeys.all, 'settings'] as const,
  /** The visible people, or the hidden ones. */
  list: (hidden: boolean) => [...peopleKeys.all, 'list', { hidden }] as const,
  person: (id: string) => [...peopleKeys.all, 'person', id] as const,
  faces: (id: string) => [...peopleKeys.all, 'faces', id] as const,
};
