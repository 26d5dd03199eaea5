import type { FolderDto, SharedAccessDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { onRequest, requestsTo } from '../../test/http-mock';
import { elapse, useFakeClock } from '../../test/clock';
import { renderApp, testUser } from '../../test/render-app';
import { makeFile, makeFolder, mockDrive } from '../../test/drive-fixtures';

let now = 5_000_000;

/** The move dialog's folder lists: the children of `parent`, or matches of `search`. */
function mockTargets(tree: Record<string, FolderDto[]>, all: FolderDto[]) {
  onRequest('GET', '/folder-service/move-folder-list', (request) => {
    const { parent, search } = request.params as { parent: string; search?: string };
    return { status: 200, data: search ? all.filter((f) => f.name.toLowerCase().includes(search.toLowerCase())) : (tree[parent] ?? []) };
  });
}

async function openMove(name: string) {
  fireEvent.contextMenu(await screen.findByRole('option', { name }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Move' }));
  return screen.findByRole('dialog');
}

describe('move popup', () => {
  it('one click selects a folder, a second within 1.5 s enters it; back goes up; Confirm moves the file', async () => {
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const work = makeFolder('Work');
    const archive = makeFolder('Archive', { parent: work._id });
    const file = makeFile('report.pdf');
    mockDrive({ files: [file], folders: [work] });
    mockTargets({ '/': [work], [work._id]: [archive] }, [work, archive]);
    onRequest('PATCH', '/file-service/move', { status: 200, data: file });
    renderApp('/home', { user: testUser });

    const dialog = await openMove('report.pdf');
    const target = () => within(dialog).getByTestId('move-target').textContent;
    expect(target()).toBe('Move to home');
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toHaveProperty('disabled', true);
    expect(within(dialog).getByRole('searchbox', { name: 'Search folders' })).toBeTruthy();

    const workOption = await within(dialog).findByRole('option', { name: 'Work' });
    fireEvent.click(workOption);
    expect(target()).toBe('Move to Work');
    now += 1600;
    fireEvent.click(workOption);
    expect(within(dialog).queryByRole('button', { name: 'Choose Work' })).toBeNull();
    now += 1000;
    fireEvent.click(workOption);
    await within(dialog).findByRole('button', { name: 'Choose Work' });
    expect(target()).toBe('Move to Work');
    expect(requestsTo('GET', '/folder-service/move-folder-list').at(-1)?.params).toMatchObject({ parent: work._id, currentParent: '/' });

    fireEvent.click(await within(dialog).findByRole('option', { name: 'Archive' }));
    expect(target()).toBe('Move to Archive');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Choose Work' }));
    expect(target()).toBe('Move to Work');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Up one folder' }));
    await within(dialog).findByRole('button', { name: 'Choose Home' });
    fireEvent.click(await within(dialog).findByRole('option', { name: 'Work' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('File Moved', { selector: '.Toastify *' });
    expect(requestsTo('PATCH', '/file-service/move')[0]?.body).toEqual({ id: file._id, parentID: work._id });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('searches folders 500 ms after typing; reset returns home; a folder is moved through the folder service', async () => {
    const docs = makeFolder('Docs');
    const taxes = makeFolder('Taxes');
    const deep = makeFolder('Tax returns', { parent: docs._id });
    mockDrive({ folders: [docs, taxes] });
    mockTargets({ '/': [taxes] }, [taxes, deep]);
    onRequest('PATCH', '/folder-service/move', { status: 500, data: {} });
    renderApp('/home', { user: testUser });

    const dialog = await openMove('Docs');
    await within(dialog).findByRole('option', { name: 'Taxes' });
    expect(requestsTo('GET', '/folder-service/move-folder-list')[0]?.params).toMatchObject({ parent: '/', folderIDs: [docs._id] });
    useFakeClock();
    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search folders' }), { target: { value: 'tax' } });
    const before = requestsTo('GET', '/folder-service/move-folder-list').length;
    await elapse(300);
    expect(requestsTo('GET', '/folder-service/move-folder-list')).toHaveLength(before);
    await within(dialog).findByRole('option', { name: 'Tax returns' });
    expect(requestsTo('GET', '/folder-service/move-folder-list').at(-1)?.params).toMatchObject({ search: 'tax' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect((within(dialog).getByRole('searchbox') as HTMLInputElement).value).toBe('');
    fireEvent.click(await within(dialog).findByRole('option', { name: 'Taxes' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Error Moving Folder', { selector: '.Toastify *' });
    expect(requestsTo('PATCH', '/folder-service/move')[0]?.body).toEqual({ id: docs._id, parentID: taxes._id });
  });

  it('a multi-selection has no search box and moves with move-multi ("Items Moved")', async () => {
    const a = makeFile('a.txt');
    const dir = makeFolder('Dir');
    const target = makeFolder('Target');
    mockDrive({ files: [a], folders: [dir, target] });
    mockTargets({ '/': [target] }, [target]);
    onRequest('PATCH', '/file-service/move-multi', { status: 200, data: {} });
    const { store } = renderApp('/home', { user: testUser });
    fireEvent.click(await screen.findByRole('option', { name: 'a.txt' }), { ctrlKey: true });
    fireEvent.click(await screen.findByRole('option', { name: 'Dir' }), { ctrlKey: true });
    fireEvent.click(within(screen.getByRole('toolbar')).getByRole('button', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move 2 items' });
    expect(within(dialog).queryByRole('searchbox')).toBeNull();
    await waitFor(() => expect(requestsTo('GET', '/folder-service/move-folder-list')[0]?.params).toMatchObject({ folderIDs: [dir._id] }));
    fireEvent.click(await within(dialog).findByRole('option', { name: 'Target' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Items Moved', { selector: '.Toastify *' });
    expect(requestsTo('PATCH', '/file-service/move-multi')[0]?.body).toEqual({
      items: [
        { type: 'file', id: a._id },
        { type: 'folder', id: dir._id },
      ],
      parentID: target._id,
    });
    expect(store.getState().selection.multiSelectMode).toBe(false);
  });
});

describe('move popup inside a folder shared with the account as editor', () => {
  const owner = { id: 'acc-owner', email: 'owner@example.com' };
  const shared: SharedAccessDto = { role: 'editor', owner, rootId: 'shared-root', rootType: 'folder' };

  /** The shared folder (its parent is the owner's, unknown to the account), a folder in it with one inside, and a file. */
  function sharedTree() {
    const root: FolderDto = { ...makeFolder('Team plans', { owner: owner.id, parent: 'owners-folder' }), _id: 'shared-root', shared };
    const drafts: FolderDto = { ...makeFolder('Drafts', { owner: owner.id, parent: root._id }), shared };
    const old: FolderDto = { ...makeFolder('Old', { owner: owner.id, parent: drafts._id }), shared };
    const file = makeFile('budget.pdf', { metadata: { owner: owner.id, parent: root._id }, shared });
    mockDrive({ folders: [drafts], files: [file], info: [root, drafts, old] });
    mockTargets({ [root._id]: [drafts], [drafts._id]: [old], '/': [makeFolder('My own folder')] }, []);
    return { root, drafts, old, file };
  }

  it('starts at the shared folder, never goes above it, has no search, and moves within the share', async () => {
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const { root, drafts, file } = sharedTree();
    onRequest('PATCH', '/file-service/move', { status: 200, data: file });
    renderApp(`/folder/${root._id}`, { user: testUser });
    await screen.findByTestId('shared-by');

    const dialog = await openMove('budget.pdf');
    await within(dialog).findByRole('button', { name: 'Choose Team plans' });
    const target = () => within(dialog).getByTestId('move-target').textContent;
    expect(target()).toBe('Move to Team plans');
    expect(within(dialog).queryByRole('searchbox')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Up one folder' })).toHaveProperty('disabled', true);
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toHaveProperty('disabled', true);
    expect(requestsTo('GET', '/folder-service/move-folder-list')[0]?.params).toMatchObject({ parent: root._id });
    expect(within(dialog).queryByRole('option', { name: 'My own folder' })).toBeNull();

    // Into Drafts, then Old; up twice comes back to the shared folder and stops there.
    fireEvent.keyDown(await within(dialog).findByRole('option', { name: 'Drafts' }), { key: 'Enter' });
    await within(dialog).findByRole('button', { name: 'Choose Drafts' });
    fireEvent.keyDown(await within(dialog).findByRole('option', { name: 'Old' }), { key: 'Enter' });
    await within(dialog).findByRole('button', { name: 'Choose Old' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Up one folder' }));
    await within(dialog).findByRole('button', { name: 'Choose Drafts' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Up one folder' }));
    await within(dialog).findByRole('button', { name: 'Choose Team plans' });
    expect(within(dialog).getByRole('button', { name: 'Up one folder' })).toHaveProperty('disabled', true);
    expect(requestsTo('GET', '/folder-service/move-folder-list').map((r) => (r.params as { parent: string }).parent)).not.toContain('/');

    // Reset goes back to the shared folder too, not Home.
    fireEvent.keyDown(await within(dialog).findByRole('option', { name: 'Drafts' }), { key: 'Enter' });
    await within(dialog).findByRole('button', { name: 'Choose Drafts' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    await within(dialog).findByRole('button', { name: 'Choose Team plans' });

    fireEvent.click(await within(dialog).findByRole('option', { name: 'Drafts' }));
    expect(target()).toBe('Move to Drafts');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('File Moved', { selector: '.Toastify *' });
    expect(requestsTo('PATCH', '/file-service/move')[0]?.body).toEqual({ id: file._id, parentID: drafts._id });
  });

  it('a multi-selection inside the share moves from the multi-select bar, starting at the shared folder', async () => {
    const { root, drafts, file } = sharedTree();
    const notes = makeFile('notes.txt', { metadata: { owner: owner.id, parent: root._id }, shared });
    mockDrive({ folders: [drafts], files: [file, notes], info: [root, drafts] });
    onRequest('PATCH', '/file-service/move-multi', { status: 200, data: {} });
    renderApp(`/folder/${root._id}`, { user: testUser });
    await screen.findByTestId('shared-by');
    fireEvent.click(await screen.findByRole('option', { name: 'budget.pdf' }), { ctrlKey: true });
    fireEvent.click(await screen.findByRole('option', { name: 'notes.txt' }), { ctrlKey: true });
    fireEvent.click(within(screen.getByRole('toolbar')).getByRole('button', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move 2 items' });
    await within(dialog).findByRole('button', { name: 'Choose Team plans' });
    expect(within(dialog).getByRole('button', { name: 'Up one folder' })).toHaveProperty('disabled', true);
    fireEvent.click(await within(dialog).findByRole('option', { name: 'Drafts' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Items Moved', { selector: '.Toastify *' });
    expect(requestsTo('PATCH', '/file-service/move-multi')[0]?.body).toMatchObject({ parentID: drafts._id });
  });
});
