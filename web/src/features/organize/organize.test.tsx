import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import { makeFile, makeFolder, mockDrive } from '../../test/drive-fixtures';

const toastText = (text: string) => screen.findByText(text, { selector: '.Toastify *' });

async function openMenu(name: string) {
  fireEvent.contextMenu(await screen.findByRole('option', { name }));
  return screen.getByRole('menu');
}
const choose = async (name: string, entry: string) => fireEvent.click(within(await openMenu(name)).getByRole('menuitem', { name: entry }));

describe('create folder', () => {
  it('rejects an empty name with "Please Enter a Name", then creates in the open folder', async () => {
    const parent = makeFolder('Projects');
    mockDrive({ info: [parent] });
    onRequest('POST', '/folder-service/create', { status: 201, data: makeFolder('Plans') });
    renderApp(`/folder/${parent._id}`, { user: testUser });
    fireEvent.click(await screen.findByRole('button', { name: 'ADD NEW' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Create Folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Folder' });
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please Enter a Name');
    expect(requestsTo('POST', '/folder-service/create')).toHaveLength(0);

    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Plans' } });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(requestsTo('POST', '/folder-service/create')[0]?.body).toEqual({ name: 'Plans', parent: parent._id }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('creates at the root from home', async () => {
    mockDrive();
    onRequest('POST', '/folder-service/create', { status: 201, data: makeFolder('A') });
    renderApp('/home', { user: testUser });
    fireEvent.click(await screen.findByRole('button', { name: 'ADD NEW' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Create Folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Folder' });
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'A' } });
    fireEvent.submit(within(dialog).getByRole('textbox'));
    await waitFor(() => expect(requestsTo('POST', '/folder-service/create')[0]?.body).toEqual({ name: 'A', parent: '/' }));
  });
});

describe('rename', () => {
  it('does nothing when the name is unchanged, refuses an empty one, and renames with its toasts', async () => {
    const file = makeFile('report.pdf');
    mockDrive({ files: [file] });
    onRequest('PATCH', '/file-service/rename', { status: 200, data: { ...file, filename: 'final.pdf' } });
    renderApp('/home', { user: testUser });

    await choose('report.pdf', 'Rename');
    let dialog = await screen.findByRole('dialog', { name: 'Rename' });
    const input = within(dialog).getByRole('textbox') as HTMLInputElement;
    expect(input.value).toBe('report.pdf');
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 'report'.length]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsTo('PATCH', '/file-service/rename')).toHaveLength(0);

    await choose('report.pdf', 'Rename');
    dialog = await screen.findByRole('dialog', { name: 'Rename' });
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please Enter a Name');
    expect(requestsTo('PATCH', '/file-service/rename')).toHaveLength(0);

    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'final.pdf' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await toastText('Renamed');
    expect(requestsTo('PATCH', '/file-service/rename')[0]?.body).toEqual({ id: file._id, title: 'final.pdf' });
  });

  it('renames folders through the folder service and toasts "Error Renaming" on failure', async () => {
    const folder = makeFolder('Docs');
    mockDrive({ folders: [folder] });
    onRequest('PATCH', '/folder-service/rename', { status: 500, data: errorBody('INTERNAL') });
    renderApp('/home', { user: testUser });
    await choose('Docs', 'Rename');
    const dialog = await screen.findByRole('dialog', { name: 'Rename' });
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Papers' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await toastText('Error Renaming');
    expect(requestsTo('PATCH', '/folder-service/rename')[0]?.body).toEqual({ id: folder._id, title: 'Papers' });
  });
});

describe('trash, restore and delete (confirmations and toasts)', () => {
  it('asks "Move to trash?" and trashes a file; cancel does nothing', async () => {
    const file = makeFile('report.pdf');
    mockDrive({ files: [file] });
    onRequest('PATCH', '/file-service/trash', { status: 200, data: file });
    renderApp('/home', { user: testUser });
    await choose('report.pdf', 'Trash');
    let dialog = screen.getByRole('dialog', { name: 'Move to trash?' });
    expect(dialog.textContent).toContain('Items in the trash will eventually be deleted.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requestsTo('PATCH', '/file-service/trash')).toHaveLength(0);

    await choose('report.pdf', 'Trash');
    dialog = screen.getByRole('dialog', { name: 'Move to trash?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await toastText('Trashed');
    expect(requestsTo('PATCH', '/file-service/trash')[0]?.body).toEqual({ id: file._id });
  });

  it('a failed trash toasts "Error Trashing"', async () => {
    const folder = makeFolder('Docs');
    mockDrive({ folders: [folder] });
    onRequest('PATCH', '/folder-service/trash', { status: 500, data: errorBody('INTERNAL') });
    renderApp('/home', { user: testUser });
    await choose('Docs', 'Trash');
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await toastText('Error Trashing');
  });

  it.each([
    ['file', 'Delete file?', 'You will not be able to recover this file.'],
    ['folder', 'Delete folder?', 'You will not be able to recover this folder.'],
  ] as const)('deleting a %s asks "%s"', async (type, title, text) => {
    const item = type === 'file' ? makeFile('gone.txt', { metadata: { trashed: true } }) : makeFolder('gone', { trashed: true });
    mockDrive(type === 'file' ? { files: [item as ReturnType<typeof makeFile>] } : { folders: [item as ReturnType<typeof makeFolder>] });
    onRequest('DELETE', `/${type}-service/remove`, { status: 200, data: {} });
    renderApp('/trash', { user: testUser });
    await choose(type === 'file' ? 'gone.txt' : 'gone', 'Delete');
    const dialog = screen.getByRole('dialog', { name: title });
    expect(dialog.textContent).toContain(text);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await toastText('Deleted');
    expect(requestsTo('DELETE', `/${type}-service/remove`)[0]?.body).toEqual({ id: item._id });
  });

  it('restores one item with "Restore item?"', async () => {
    const file = makeFile('back.txt', { metadata: { trashed: true } });
    mockDrive({ files: [file] });
    onRequest('PATCH', '/file-service/restore', { status: 200, data: file });
    renderApp('/trash', { user: testUser });
    await choose('back.txt', 'Restore');
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Restore item?' })).getByRole('button', { name: 'Yes' }));
    await toastText('Restored');
    expect(requestsTo('PATCH', '/file-service/restore')[0]?.body).toEqual({ id: file._id });
  });

  it('the multi-select bar restores and deletes several items with the -multi calls', async () => {
    const file = makeFile('a.txt', { metadata: { trashed: true } });
    const folder = makeFolder('b', { trashed: true });
    mockDrive({ files: [file], folders: [folder] });
    onRequest('PATCH', '/file-service/restore-multi', { status: 500, data: errorBody('INTERNAL') });
    onRequest('DELETE', '/file-service/remove-multi', { status: 200, data: {} });
    const { store } = renderApp('/trash', { user: testUser });
    fireEvent.click(await screen.findByRole('option', { name: 'a.txt' }), { ctrlKey: true });
    fireEvent.click(await screen.findByRole('option', { name: 'b' }), { ctrlKey: true });
    const bar = screen.getByRole('toolbar', { name: 'Selected items' });

    fireEvent.click(within(bar).getByRole('button', { name: 'Restore' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Restore items?' })).getByRole('button', { name: 'Yes' }));
    await toastText('Error Restoring');
    expect(store.getState().selection.multiSelectCount).toBe(2);

    fireEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete items?' });
    expect(dialog.textContent).toContain('You will not be able to recover these items.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await toastText('Deleted');
    expect(requestsTo('DELETE', '/file-service/remove-multi')[0]?.body).toEqual({
      items: [
        { type: 'file', id: file._id },
        { type: 'folder', id: folder._id },
      ],
    });
    expect(store.getState().selection.multiSelectMode).toBe(false);
  });

  it('the multi-select bar trashes several items with "Trashing..." and "Trashed"', async () => {
    const a = makeFile('a.txt');
    const b = makeFile('b.txt');
    mockDrive({ files: [a, b] });
    onRequest('PATCH', '/file-service/trash-multi', { status: 200, data: {} });
    renderApp('/home', { user: testUser });
    fireEvent.click(await screen.findByRole('option', { name: 'a.txt' }), { ctrlKey: true });
    fireEvent.click(await screen.findByRole('option', { name: 'b.txt' }), { ctrlKey: true });
    fireEvent.click(within(screen.getByRole('toolbar')).getByRole('button', { name: 'Trash' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Move to trash?' })).getByRole('button', { name: 'Yes' }));
    await toastText('Trashing...');
    await toastText('Trashed');
    expect(requestsTo('PATCH', '/file-service/trash-multi')[0]?.body).toEqual({
      items: [
        { type: 'file', id: a._id },
        { type: 'file', id: b._id },
      ],
    });
  });
});
