import { describe, expect, it } from 'vitest';
import { menuActionsFor } from './item-menu';

describe('item menu actions', () => {
  it("for the account's own items, the sections' actions, with new versions for files and a folder's restore as it was", () => {
    expect(menuActionsFor('file', 'home')).toEqual(['multi-select', 'rename', 'share', 'download', 'upload-version', 'move', 'trash']);
    expect(menuActionsFor('folder', 'home')).toEqual(['multi-select', 'rename', 'download', 'move', 'restore-as-of', 'trash']);
    expect(menuActionsFor('file', 'media')).toEqual(['multi-select', 'share', 'download', 'upload-version', 'trash']);
    expect(menuActionsFor('folder', 'trash', true)).toEqual(['restore', 'delete']);
    expect(menuActionsFor('file', 'trash')).toEqual(['multi-select', 'restore', 'delete']);
  });

  it('a viewer only downloads', () => {
    const viewer = { role: 'viewer' as const, isShareRoot: false };
    expect(menuActionsFor('file', 'home', false, viewer)).toEqual(['download']);
    expect(menuActionsFor('folder', 'home', true, { ...viewer, isShareRoot: true })).toEqual(['download']);
  });

  it('an editor renames, moves, trashes and gives new versions inside the share, never makes public links nor restores a folder', () => {
    const editor = { role: 'editor' as const, isShareRoot: false };
    expect(menuActionsFor('file', 'home', false, editor)).toEqual([
      'multi-select',
      'rename',
      'download',
      'upload-version',
      'move',
      'trash',
    ]);
    expect(menuActionsFor('folder', 'home', true, editor)).toEqual(['multi-select', 'rename', 'download', 'move', 'trash']);
    expect(menuActionsFor('file', 'media', false, editor)).toEqual(['multi-select', 'download', 'upload-version', 'trash']);
    expect(menuActionsFor('folder', 'home', true, { ...editor, isShareRoot: true })).toEqual(['download']);
    expect(menuActionsFor('file', 'home', false, { ...editor, isShareRoot: true })).toEqual(['download', 'upload-version']);
  });
});
