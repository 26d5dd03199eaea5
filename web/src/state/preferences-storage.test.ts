import { STORAGE_KEYS } from '@nimbus/common';
import { describe, expect, it } from 'vitest';
import { readFilterPreferences, readGeneralPreferences, writeSortPreference } from './preferences-storage';

describe('preference storage', () => {
  it.each([
    ['date_desc', null, null],
    ['date_asc', null, 'true'],
    ['alp_desc', 'true', null],
    ['alp_asc', 'true', 'true'],
  ] as const)('stores %s as sort-name=%s and order-asc=%s and reads it back', (sortBy, sortName, orderAsc) => {
    writeSortPreference(sortBy);
    expect(localStorage.getItem(STORAGE_KEYS.sortName)).toBe(sortName);
    expect(localStorage.getItem(STORAGE_KEYS.orderAsc)).toBe(orderAsc);
    expect(readFilterPreferences().sortBy).toBe(sortBy);
  });

  it('treats anything but the string true as unset', () => {
    localStorage.setItem(STORAGE_KEYS.listMode, 'yes');
    localStorage.setItem(STORAGE_KEYS.singleClickFolders, 'true');
    expect(readGeneralPreferences()).toEqual({ listView: false, singleClickFolders: true, loadThumbnailsDisabled: false });
  });

  it('starts from the default preferences', () => {
    expect(readGeneralPreferences()).toEqual({ listView: false, singleClickFolders: false, loadThumbnailsDisabled: false });
    expect(readFilterPreferences()).toEqual({ sortBy: 'date_desc', limit: 50, search: '', mediaFilter: 'all' });
  });
});
