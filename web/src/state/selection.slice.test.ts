import type { FileDto } from '@nimbus/common';
import { describe, expect, it } from 'vitest';
import { createAppStore } from './store';
import { resetMultiSelect, setMainSelect, toggleMultiSelect } from './selection.slice';

const file: FileDto = {
  _id: 'f1',
  filename: 'a.txt',
  length: 1,
  uploadDate: '2025-01-01T00:00:00.000Z',
  metadata: {
    owner: 'u1',
    parent: '/',
    size: 1,
    contentType: 'text/plain',
    hasThumbnail: false,
    thumbnailID: '',
    isVideo: false,
    trashed: false,
  },
};

describe('selection slice (multi-select)', () => {
  it('starts empty', () => {
    expect(createAppStore().getState().selection).toMatchObject({ multiSelectMode: false, multiSelectMap: {}, multiSelectCount: 0 });
  });

  it('toggling adds an item and turns the mode on; toggling it again removes it and turns the mode off', () => {
    const store = createAppStore();
    store.dispatch(toggleMultiSelect([{ id: 'f1', type: 'file' }]));
    expect(store.getState().selection).toMatchObject({ multiSelectMode: true, multiSelectCount: 1 });
    store.dispatch(toggleMultiSelect([{ id: 'f1', type: 'file' }]));
    expect(store.getState().selection).toMatchObject({ multiSelectMode: false, multiSelectCount: 0, multiSelectMap: {} });
  });

  it('toggling a selected id of a different type replaces its entry', () => {
    const store = createAppStore();
    store.dispatch(toggleMultiSelect([{ id: 'x', type: 'file' }]));
    store.dispatch(toggleMultiSelect([{ id: 'x', type: 'folder' }]));
    expect(store.getState().selection.multiSelectMap).toEqual({ x: { id: 'x', type: 'folder' } });
    expect(store.getState().selection.multiSelectCount).toBe(1);
  });

  it('entering the mode moves the main selection into it unless it was toggled', () => {
    const store = createAppStore();
    store.dispatch(setMainSelect({ type: 'file', id: 'f1', file, folder: null }));
    store.dispatch(toggleMultiSelect([{ id: 'd1', type: 'folder' }]));
    const state = store.getState().selection;
    expect(state.mainSection.id).toBe('');
    expect(state.multiSelectMap).toEqual({ f1: { id: 'f1', type: 'file' }, d1: { id: 'd1', type: 'folder' } });
    expect(state.multiSelectCount).toBe(2);

    store.dispatch(resetMultiSelect());
    store.dispatch(setMainSelect({ type: 'file', id: 'f1', file, folder: null }));
    store.dispatch(toggleMultiSelect([{ id: 'f1', type: 'file' }]));
    expect(store.getState().selection.multiSelectMap).toEqual({ f1: { id: 'f1', type: 'file' } });
  });
});
