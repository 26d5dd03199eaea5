import { describe, expect, it } from 'vitest';
import { menuActionsFor } from './item-menu';

describe('item menu actions', () => {
  it("for the account's own items, the sections' actions as before", () => {
    expect(menuActionsFor('file', 'home')).toEqual(['multi-select', 'rename', 'share', 'download', 'move', 'trash']);
    expect(menuActionsFor('folder', 'home')).toEqual(['multi-select', 'rename', 'download', 'move', 'trash']);
    expect(menuActionsFor('file', 'media')).toEqual(['multi-select', 'share', 'download', 'trash']);
    expect(menuActionsFor('folder', 'trash', true)).toEqual(['restore', 'delete']);
  });

  it('a viewer only downloads', () => {
    const viewer = { role: 'viewer' as const, isShareRoot: false };
    expect(menuActionsFor('file', 'home', false, viewer)).toEqual(['download']);
    expect(menuActionsFor('folder', 'home', true, { ...viewer, isShareRoot: true })).toEqual(['download']);
  });

  it('an editor renames, moves and trashes inside the share, never the shared item, and never makes public links', () => {
    const editor = { role: 'editor' as const, isShareRoot: false };
    expect(menuActionsFor('file', 'home', false, editor)).toEqual(['multi-select', 'rename', 'download', 'move', 'trash']);
    expect(menuActionsFor('folder', 'home', true, editor)).toEqual(['multi-select', 'rename', 'download', 'move', 'trash']);
    expect(menuActionsFor('file', 'media', false, editor)).toEqual(['multi-select', 'download', 'trash']);
    expect(menuActionsFor('folder', 'home', true, { ...editor, isShareRoot: true })).toEqual(['download']);
  });
});
