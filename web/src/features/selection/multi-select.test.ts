import type { FolderDto } from '@nimbus/common';
import { describe, expect, it } from 'vitest';
import { resetMultiSelect, setMainSelect, toggleMultiSelect } from '../../state/selection.slice';
import { createAppStore } from '../../state/store';

const folder: FolderDto = {
  _id: 'd1',
  name: 'Docs',
  parent: '/',
  owner: 'u',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  trashed: false,
};

describe('multi-select rules', () => {
  it('toggling adds an item and turns the mode on', () => {
    const store = createAppStore();
    store.dispatch(toggleMultiSelect([{ id: 'a', type: 'file' }]));
    store.dispatch(toggleMultiSelect([{ id: 'b', type: 'folder' }]));
    expect(store.getState().selection).toMatchObject({ multiSelectMode: true, multiSelectCount: 2 });
  });

  it('toggling a selected item of the same type removes it; the mode ends at 0', () => {
    const store = createAppStore();
    store.dispatch(toggleMultiSelect([{ id: 'a', type: 'file' }]));
    store.dispatch(toggleMultiSelect([{ id: 'b', type: 'file' }]));
    store.dispatch(toggleMultiSelect([{ id: 'a', type: 'file' }]));
    expect(store.getState().selection).toMatchObject({
      multiSelectMode: true,
      multiSelectCount: 1,
      multiSelectMap: { b: { id: 'b', type: 'file' } },
    });
    store.dispatch(toggleMultiSelect([{ id: 'b', type: 'file' }]));
    expect(store.getState().selection).toMatchObject({ multiSelectMode: false, multiSelectCount: 0, multiSelectMap: {} });
  });

  it('toggling an id selected with a different type replaces its entry', () => {
    const store = createAppStore();
    store.dispatch(toggleMultiSelect([{ id: 'x', type: 'folder' }]));
    store.dispatch(toggleMultiSelect([{ id: 'x', type: 'file' }]));
    expect(store.getState().selection).toMatchObject({ multiSelectCount: 1, multiSelectMap: { x: { id: 'x', type: 'file' } } });
  });

  it('entering the mode clears the main selection and adds it, unless it was among the toggled items', () => {
    const store = createAppStore();
    store.dispatch(setMainSelect({ type: 'folder', id: 'd1', file: null, folder }));
    store.dispatch(toggleMultiSelect([{ id: 'a', type: 'file' }]));
    expect(store.getState().selection.mainSection.id).toBe('');
    expect(store.getState().selection.multiSelectMap).toEqual({ d1: { id: 'd1', type: 'folder' }, a: { id: 'a', type: 'file' } });

    store.dispatch(resetMultiSelect());
    store.dispatch(setMainSelect({ type: 'folder', id: 'd1', file: null, folder }));
    store.dispatch(toggleMultiSelect([{ id: 'd1', type: 'folder' }]));
    expect(store.getState().selection).toMatchObject({ multiSelectCount: 1, multiSelectMap: { d1: { id: 'd1', type: 'folder' } } });
  });

  it('once in the mode, the main selection is not added again', () => {
    const store = createAppStore();
    store.dispatch(toggleMultiSelect([{ id: 'a', type: 'file' }]));
    store.dispatch(setMainSelect({ type: 'folder', id: 'd1', file: null, folder }));
    store.dispatch(toggleMultiSelect([{ id: 'b', type: 'file' }]));
    expect(Object.keys(store.getState().selection.multiSelectMap)).toEqual(['a', 'b']);
  });
});
