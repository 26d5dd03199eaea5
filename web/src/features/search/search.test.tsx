import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferredReply, errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { elapse, useFakeClock } from '../../test/clock';
import { renderApp, testUser } from '../../test/render-app';
import { makeFile, makeFolder, mockDrive } from '../../test/drive-fixtures';

const input = () => screen.findByRole('searchbox', { name: 'Search files and folders' });
const dropdown = () => screen.findByTestId('search-dropdown');
/**
 * Focuses the bar until its dropdown shows: the page behind it may still be settling on a slow
 * machine (or a closing popup giving focus back) and close the dropdown once; a person would
 * click into the bar again.
 */
const focusUntilOpen = (field: HTMLElement) =>
  waitFor(() => {
    fireEvent.focus(field);
    expect(screen.getByTestId('search-dropdown')).toBeTruthy();
  });
/**
 * Types into the bar until its dropdown shows: while the page first loads, the layout may mount
 * the bar afresh (losing what was typed) or close its dropdown once.
 */
const typeUntilOpen = (value: string) =>
  waitFor(() => {
    const field = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search files and folders' });
    if (field.value !== value) fireEvent.change(field, { target: { value } });
    fireEvent.focus(field);
    expect(screen.getByTestId('search-dropdown')).toBeTruthy();
  });

describe('search dropdown', () => {
  it('asks 500 ms after typing stops and lists folders first, then files', async () => {
    const folder = makeFolder('Invoices');
    const file = makeFile('invoice-march.pdf');
    mockDrive();
    onRequest('GET', '/file-service/suggested-list', { status: 200, data: { folderList: [folder], fileList: [file] } });
    renderApp('/home', { user: testUser });
    fireEvent.change(await input(), { target: { value: 'inv' } });
    useFakeClock();
    fireEvent.change(await input(), { target: { value: 'invoice' } });
    await elapse(350);
    expect(requestsTo('GET', '/file-service/suggested-list')).toHaveLength(0);
    const list = await within(await dropdown()).findByRole('listbox', { name: 'Search results' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Invoices', 'PDFinvoice-march.pdf']);
    expect(requestsTo('GET', '/file-service/suggested-list')).toHaveLength(1);
    expect(requestsTo('GET', '/file-service/suggested-list')[0]?.params).toEqual({ search: 'invoice' });
    expect((await dropdown()).className).toContain('max-h-[400px]');
  });

  it('says "No Results" when nothing matches, and closes on a click outside', async () => {
    mockDrive();
    onRequest('GET', '/file-service/suggested-list', { status: 200, data: { folderList: [], fileList: [] } });
    renderApp('/home', { user: testUser });
    await typeUntilOpen('zzz');
    expect(await within(await dropdown()).findByText('No Results')).toBeTruthy();
    fireEvent.pointerDown(document.body);
    expect(screen.queryByTestId('search-dropdown')).toBeNull();
  });

  it('a folder result opens /folder/{id}; a file result opens its popup', async () => {
    const folder = makeFolder('Invoices');
    const file = makeFile('invoice.pdf');
    mockDrive({ info: [folder] });
    onRequest('GET', '/file-service/suggested-list', { status: 200, data: { folderList: [folder], fileList: [file] } });
    const { router, store } = renderApp('/home', { user: testUser });
    await typeUntilOpen('inv');
    fireEvent.click(await within(await dropdown()).findByRole('option', { name: 'invoice.pdf' }));
    expect(store.getState().selection.popupModal).toEqual({ type: 'file', file });
    expect(screen.queryByTestId('search-dropdown')).toBeNull();
    // The popup is modal: it closes before the search bar can be used again.
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Focus goes back where it was a moment after the popup closes; focus the search bar after that.
    await focusUntilOpen(await input());
    fireEvent.click(await within(await dropdown()).findByRole('option', { name: 'Invoices' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/folder/${folder._id}`));
  });

  it('marks folders and files shared with the account with the "Shared" badge, as the results page does', async () => {
    const shared = {
      role: 'viewer' as const,
      owner: { id: 'acc-owner', email: 'owner@example.com' },
      rootId: 'r',
      rootType: 'folder' as const,
    };
    const theirs = makeFolder('Team plans', { owner: 'acc-owner', shared: { ...shared } });
    const mine = makeFolder('Plans 2025');
    const theirFile = makeFile('plan.pdf', { shared: { ...shared } });
    const myFile = makeFile('plan-notes.txt');
    mockDrive();
    onRequest('GET', '/file-service/suggested-list', { status: 200, data: { folderList: [theirs, mine], fileList: [theirFile, myFile] } });
    renderApp('/home', { user: testUser });
    await typeUntilOpen('plan');
    const list = await within(await dropdown()).findByRole('listbox', { name: 'Search results' });
    const badged = within(list)
      .getAllByRole('option')
      .map((option) => within(option).queryByTestId('shared-badge') !== null);
    expect(badged).toEqual([true, false, true, false]);
    expect(within(list).getAllByTestId('shared-badge')[0]?.textContent).toBe('Shared');
  });

  it('in the trash it searches the trash and folder results open /folder-trash/{id}', async () => {
    const folder = makeFolder('old', { trashed: true });
    mockDrive({ info: [folder] });
    onRequest('GET', '/file-service/suggested-list', { status: 200, data: { folderList: [folder], fileList: [] } });
    const { router } = renderApp('/trash', { user: testUser });
    await typeUntilOpen('old');
    fireEvent.click(await within(await dropdown()).findByRole('option', { name: 'old' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/folder-trash/${folder._id}`));
    expect(requestsTo('GET', '/file-service/suggested-list')[0]?.params).toEqual({ search: 'old', trashMode: 'true' });
  });
});

describe('AI search', () => {
  it('is disabled without text; shows "Thinking..." then at most 5 folders and 5 files as "Best matches found"', async () => {
    const folders = Array.from({ length: 7 }, (_, i) => makeFolder(`Vacation ${i}`));
    const files = Array.from({ length: 8 }, (_, i) => makeFile(`beach-${i}.jpg`));
    mockDrive();
    onRequest('GET', '/file-service/suggested-list', { status: 200, data: { folderList: [], fileList: [] } });
    const answer = deferredReply({ status: 200, data: { folders, files } });
    onRequest('POST', '/file-service/semantic-search', answer.reply);
    renderApp('/home', { user: testUser });
    const ai = await screen.findByRole('button', { name: 'AI search' });
    expect(ai).toHaveProperty('disabled', true);
    fireEvent.change(await input(), { target: { value: 'family vacation video' } });
    fireEvent.click(ai);
    const box = await dropdown();
    expect(box.textContent).toContain('Thinking...');
    expect(box.textContent).toContain('AI is analyzing your query for the best matches');
    answer.release();
    await within(box).findByText('Best matches found');
    const names = within(box)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(names).toEqual([...folders.slice(0, 5).map((f) => f.name), ...files.slice(0, 5).map((f) => `JPG${f.filename}`)]);
    expect(requestsTo('POST', '/file-service/semantic-search')[0]?.body).toEqual({ query: 'family vacation video', userId: testUser._id });
  });

  it('shows "No AI Results" on failure', async () => {
    mockDrive();
    onRequest('GET', '/file-service/suggested-list', { status: 200, data: { folderList: [], fileList: [] } });
    onRequest('POST', '/file-service/semantic-search', { status: 500, data: errorBody('INTERNAL') });
    renderApp('/home', { user: testUser });
    fireEvent.change(await input(), { target: { value: 'pet' } });
    fireEvent.click(screen.getByRole('button', { name: 'AI search' }));
    expect(await within(await dropdown()).findByText('No AI Results')).toBeTruthy();
  });

  it('uses the saved user id when the session has none', async () => {
    localStorage.setItem(STORAGE_KEYS.userId, 'saved-id');
    mockDrive();
    onRequest('POST', '/file-service/semantic-search', { status: 200, data: { folders: [], files: [] } });
    onRequest('GET', '/file-service/suggested-list', { status: 200, data: { folderList: [], fileList: [] } });
    renderApp('/home', { user: { ...testUser, _id: '' } });
    fireEvent.change(await input(), { target: { value: 'pet' } });
    fireEvent.click(screen.getByRole('button', { name: 'AI search' }));
    await within(await dropdown()).findByText('No AI Results');
    expect(requestsTo('POST', '/file-service/semantic-search')[0]?.body).toEqual({ query: 'pet', userId: 'saved-id' });
  });

  it('stays off when no user id is known', async () => {
    mockDrive();
    onRequest('GET', '/file-service/suggested-list', { status: 200, data: { folderList: [], fileList: [] } });
    renderApp('/home', { user: { ...testUser, _id: '' } });
    fireEvent.change(await input(), { target: { value: 'pet' } });
    expect(screen.getByRole('button', { name: 'AI search' })).toHaveProperty('disabled', true);
  });
});
