import { STORAGE_KEYS, type StorageKey } from '@nimbus/common';
import { filterInitialState, isSortAscending, isSortByName, sortByOf, type FilterState } from './filter.slice';
import { generalInitialState, type GeneralState } from './general.slice';

function readFlag(key: StorageKey): boolean {
  try {
    return localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
}

/** Flags are the string 'true' when set and absent otherwise. */
export function writeFlag(key: StorageKey, value: boolean): void {
  try {
    if (value) localStorage.setItem(key, 'true');
    else localStorage.removeItem(key);
  } catch {
    // Without storage the preference lasts for this page only.
  }
}

export function readGeneralPreferences(): GeneralState {
  return {
    ...generalInitialState,
    listView: readFlag(STORAGE_KEYS.listMode),
    singleClickFolders: readFlag(STORAGE_KEYS.singleClickFolders),
    loadThumbnailsDisabled: readFlag(STORAGE_KEYS.notLoadThumbnails),
  };
}

export function readFilterPreferences(): FilterState {
  return { ...filterInitialState, sortBy: sortByOf(readFlag(STORAGE_KEYS.sortName), readFlag(STORAGE_KEYS.orderAsc)) };
}

export function writeGeneralPreferences(general: GeneralState): void {
  writeFlag(STORAGE_KEYS.listMode, general.listView);
  writeFlag(STORAGE_KEYS.singleClickFolders, general.singleClickFolders);
  writeFlag(STORAGE_KEYS.notLoadThumbnails, general.loadThumbnailsDisabled);
}

export function writeSortPreference(sortBy: FilterState['sortBy']): void {
  writeFlag(STORAGE_KEYS.sortName, isSortByName(sortBy));
  writeFlag(STORAGE_KEYS.orderAsc, isSortAscending(sortBy));
}
