/** localStorage keys of the web app. Flags hold the string 'true' when set and are removed otherwise. */
export const STORAGE_KEYS = {
  browserId: 'browser-id',
  hasPreviouslyLoggedIn: 'hasPreviouslyLoggedIn',
  userId: 'userId',
  listMode: 'list-mode',
  sortName: 'sort-name',
  orderAsc: 'order-asc',
  singleClickFolders: 'single-click-folders',
  notLoadThumbnails: 'not-load-thumbnails',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];
