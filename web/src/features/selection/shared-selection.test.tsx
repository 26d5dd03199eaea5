import type { FolderDto, ShareRole, SharedAccessDto, SharedWithMeDto } from '@nimbus/common';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFile, makeFolder, mockDrive } from '../../test/drive-fixtures';
import { onRequest } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import { listClickTimer } from './click-rules';
import { selectionAccessOf } from './useSelectionAccess';

afterEach(() => listClickTimer.reset());

const owner = { id: 'acc-owner', email: 'owner@example.com' };

/** A folder shared with the account as `role`, holding a folder and a file, as the server tells them. */
function sharedTree(role: ShareRole) {
  const shared: SharedAccessDto = { role, owner, rootId: 'shared-root', rootType: 'folder' };
  const root: FolderDto = { ...makeFolder('Team plans', { owner: owner.id, parent: 'owners-folder' }), _id: 'shared-root', shared };
  const inner: FolderDto = { ...makeFolder('Drafts', { owner: owner.id, parent: root._id }), shared };
  const file = makeFile('budget.pdf', { metadata: { owner: owner.id, parent: root._id }, shared });
  mockDrive({ folders: [inner], files: [file], info: [root, inner] });
  return { root, inner, file };
}

const barActions = () =>
  within(screen.getByRole('toolbar', { name: 'Selected items' }))
    .getAllByRole('button')
    .map((button) => button.getAttribute('aria-label'));

async function selectBoth(first: string, second: string) {
  fireEvent.click(await screen.findByRole('option', { name: first }), { ctrlKey: true });
  fireEvent.click(await screen.findByRole('option', { name: second }), { ctrlKey: true });
}

describe('the multi-select bar in a folder shared with the account', () => {
  it('as viewer: only Download, no Trash or Move', async () => {
    const { root } = sharedTree('viewer');
    renderApp(`/folder/${root._id}`, { user: testUser });
    await screen.findByTestId('shared-by');
    await selectBoth('budget.pdf', 'Drafts');
    expect(barActions()).toEqual(['Clear selection', 'Download']);
  });

  it('as editor: Trash, Move and Download', async () => {
    const { root } = sharedTree('editor');
    renderApp(`/folder/${root._id}`, { user: testUser });
    await screen.findByTestId('shared-by');
    await selectBoth('budget.pdf', 'Drafts');
    expect(barActions()).toEqual(['Clear selection', 'Trash', 'Move', 'Download']);
  });

  it('a selection holding the shared items themselves (Shared with me) offers neither Trash nor Move', async () => {
    const folder = makeFolder('Team plans', { owner: owner.id });
    const file = makeFile('budget.pdf', { metadata: { owner: owner.id } });
    const entries: SharedWithMeDto[] = [
      { shareId: 'sh-1', role: 'editor', owner, sharedAt: '2026-11-20T10:00:00.000Z', itemType: 'folder', folder },
      { shareId: 'sh-2', role: 'editor', owner, sharedAt: '2026-11-21T10:00:00.000Z', itemType: 'file', file },
    ];
    onRequest('GET', '/item-share-service/shared-with-me', { status: 200, data: entries });
    renderApp('/shared-with-me', { user: testUser });
    await selectBoth('Team plans', 'budget.pdf');
    expect(barActions()).toEqual(['Clear selection', 'Download']);
  });
});

describe('selectionAccessOf', () => {
  const editor = (rootId: string): SharedAccessDto => ({ role: 'editor', owner, rootId, rootType: 'folder' });
  const items = [
    { id: 'a', type: 'file' as const },
    { id: 'b', type: 'folder' as const },
  ];

  it('own items: trash and move, no share', () => {
    expect(selectionAccessOf(items, () => undefined)).toEqual({ canTrash: true, canMove: true, share: null });
  });

  it('inside one share as editor: trash and move within it', () => {
    expect(selectionAccessOf(items, () => editor('r'))).toEqual({ canTrash: true, canMove: true, share: editor('r') });
  });

  it('the shared item itself among them: neither', () => {
    expect(selectionAccessOf(items, () => editor('b'))).toMatchObject({ canTrash: false, canMove: false });
  });

  it('own items with shared ones, or items of two shares: trash, but no move (moves never cross a share)', () => {
    expect(selectionAccessOf(items, (item) => (item.id === 'a' ? editor('r') : undefined))).toMatchObject({
      canTrash: true,
      canMove: false,
    });
    expect(selectionAccessOf(items, (item) => editor(item.id === 'a' ? 'r' : 's'))).toMatchObject({ canTrash: true, canMove: false });
  });

  it('anything seen as viewer: neither', () => {
    const viewer: SharedAccessDto = { ...editor('r'), role: 'viewer' };
    expect(selectionAccessOf(items, (item) => (item.id === 'a' ? viewer : editor('r')))).toMatchObject({ canTrash: false, canMove: false });
  });
});
