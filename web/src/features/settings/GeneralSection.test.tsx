import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { onRequest } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const choose = (name: string, label: string) => {
  const option = Array.from(select(name).options).find((o) => o.text === label);
  fireEvent.change(select(name), { target: { value: option?.value } });
};

async function openGeneral() {
  const view = renderApp('/settings', { user: testUser });
  fireEvent.click(await screen.findByRole('button', { name: 'General' }));
  return view;
}

beforeEach(() => {
  onRequest('GET', '/user-service/user-detailed', { status: 200, data: { ...testUser, createdAt: '2025-01-01T00:00:00.000Z' } });
});

describe('general preferences', () => {
  it('shows the defaults: grid, date, descending, single click disabled, thumbnails enabled', async () => {
    await openGeneral();
    expect(select('File list style').selectedOptions[0]?.text).toBe('Grid');
    expect(select('Sort by').selectedOptions[0]?.text).toBe('Date');
    expect(select('Order by').selectedOptions[0]?.text).toBe('Descending');
    expect(select('Single click to enter folders').selectedOptions[0]?.text).toBe('Disabled');
    expect(select('Load thumbnails').selectedOptions[0]?.text).toBe('Enabled');
    for (const key of [
      STORAGE_KEYS.listMode,
      STORAGE_KEYS.sortName,
      STORAGE_KEYS.orderAsc,
      STORAGE_KEYS.singleClickFolders,
      STORAGE_KEYS.notLoadThumbnails,
    ]) {
      expect(localStorage.getItem(key)).toBeNull();
    }
  });

  it('writes each preference to its localStorage key and into the store', async () => {
    const { store } = await openGeneral();
    choose('File list style', 'List');
    choose('Sort by', 'Name');
    choose('Order by', 'Ascending');
    choose('Single click to enter folders', 'Enabled');
    choose('Load thumbnails', 'Disabled');
    expect(localStorage.getItem(STORAGE_KEYS.listMode)).toBe('true');
    expect(localStorage.getItem(STORAGE_KEYS.sortName)).toBe('true');
    expect(localStorage.getItem(STORAGE_KEYS.orderAsc)).toBe('true');
    expect(localStorage.getItem(STORAGE_KEYS.singleClickFolders)).toBe('true');
    expect(localStorage.getItem(STORAGE_KEYS.notLoadThumbnails)).toBe('true');
    expect(store.getState().general).toEqual({ listView: true, singleClickFolders: true, loadThumbnailsDisabled: true });
    expect(store.getState().filter.sortBy).toBe('alp_asc');
  });

  it('removes a key when its preference goes back to the default', async () => {
    await openGeneral();
    choose('File list style', 'List');
    choose('Order by', 'Ascending');
    choose('File list style', 'Grid');
    choose('Order by', 'Descending');
    expect(localStorage.getItem(STORAGE_KEYS.listMode)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.orderAsc)).toBeNull();
  });

  it('reads the saved preferences when the app starts', async () => {
    localStorage.setItem(STORAGE_KEYS.listMode, 'true');
    localStorage.setItem(STORAGE_KEYS.sortName, 'true');
    localStorage.setItem(STORAGE_KEYS.notLoadThumbnails, 'true');
    const { store } = await openGeneral();
    expect(select('File list style').selectedOptions[0]?.text).toBe('List');
    expect(select('Sort by').selectedOptions[0]?.text).toBe('Name');
    expect(select('Order by').selectedOptions[0]?.text).toBe('Descending');
    expect(select('Load thumbnails').selectedOptions[0]?.text).toBe('Disabled');
    expect(store.getState().filter.sortBy).toBe('alp_desc');
  });
});
