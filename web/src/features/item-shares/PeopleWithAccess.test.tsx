import type { ItemShareDto } from '@nimbus/common';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { setShareSelected } from '../../state/selection.slice';
import { createAppStore } from '../../state/store';
import { makeFile, makeFolder, mockDrive } from '../../test/drive-fixtures';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import { PopupHost } from '../popups/PopupHost';

const SHARES = '/item-share-service/shares';

const share = (id: string, email: string, role: ItemShareDto['role'], itemId = 'file-x'): ItemShareDto => ({
  id,
  itemType: 'file',
  itemId,
  recipient: { id: `acc-${id}`, email },
  role,
  createdAt: '2026-11-20T10:00:00.000Z',
});

function renderSharePopup() {
  const file = makeFile('budget.xlsx');
  const store = createAppStore();
  const router = createMemoryRouter([{ path: '*', element: <PopupHost /> }], { initialEntries: ['/home'] });
  render(
    <AppProviders store={store} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  act(() => {
    store.dispatch(setShareSelected(file));
  });
  return file;
}

const people = () => screen.findByRole('region', { name: 'People with access' });

describe('people with access, in the share popup', () => {
  it('lists who has access, and adds a person by e-mail with the chosen role', async () => {
    const added = share('s2', 'bob@example.com', 'editor');
    onRequest(
      'GET',
      SHARES,
      { status: 200, data: [share('s1', 'carol@example.com', 'viewer')] },
      {
        status: 200,
        data: [share('s1', 'carol@example.com', 'viewer'), added],
      },
    );
    onRequest('POST', SHARES, { status: 201, data: added });
    const file = renderSharePopup();

    const region = await people();
    expect(await within(region).findByText('carol@example.com')).toBeTruthy();
    expect((within(region).getByRole('combobox', { name: 'Role of carol@example.com' }) as HTMLSelectElement).value).toBe('viewer');
    expect(requestsTo('GET', SHARES)[0]?.params).toEqual({ itemType: 'file', itemId: file._id });
    // The public-link part is still there, unchanged.
    expect(screen.getByRole('heading', { name: 'Share file' })).toBeTruthy();
    expect(screen.getByLabelText('Permission')).toBeTruthy();

    fireEvent.change(within(region).getByRole('textbox', { name: 'E-mail of the person to add' }), {
      target: { value: ' bob@example.com ' },
    });
    fireEvent.change(within(region).getByRole('combobox', { name: 'Role of the person to add' }), { target: { value: 'editor' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(requestsTo('POST', SHARES)).toHaveLength(1));
    expect(requestsTo('POST', SHARES)[0]?.body).toEqual({ itemType: 'file', itemId: file._id, email: 'bob@example.com', role: 'editor' });
    expect(await within(region).findByText('bob@example.com')).toBeTruthy();
    await waitFor(() =>
      expect((within(region).getByRole('textbox', { name: 'E-mail of the person to add' }) as HTMLInputElement).value).toBe(''),
    );
  });

  it('says "No account uses this e-mail" when nobody has that address, and keeps what was typed', async () => {
    onRequest('GET', SHARES, { status: 200, data: [] });
    onRequest('POST', SHARES, { status: 404, data: errorBody('RECIPIENT_NOT_FOUND', 'No account uses this e-mail') });
    renderSharePopup();
    const region = await people();
    expect(await within(region).findByText('Only you have access')).toBeTruthy();
    const input = within(region).getByRole('textbox', { name: 'E-mail of the person to add' });
    fireEvent.change(input, { target: { value: 'nobody@example.com' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Add' }));
    expect((await within(region).findByRole('alert')).textContent).toBe('No account uses this e-mail');
    expect((input as HTMLInputElement).value).toBe('nobody@example.com');
  });

  it('explains sharing with oneself and the share limit in words', async () => {
    onRequest('GET', SHARES, { status: 200, data: [] });
    onRequest('POST', SHARES, { status: 400, data: errorBody('SHARE_WITH_SELF') }, { status: 409, data: errorBody('TOO_MANY_SHARES') });
    renderSharePopup();
    const region = await people();
    fireEvent.change(within(region).getByRole('textbox', { name: 'E-mail of the person to add' }), {
      target: { value: 'ada@example.com' },
    });
    fireEvent.click(within(region).getByRole('button', { name: 'Add' }));
    expect((await within(region).findByRole('alert')).textContent).toBe('You cannot share an item with yourself');
    fireEvent.click(within(region).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(within(region).getByRole('alert').textContent).toBe('An item can be shared with at most 100 people'));
  });

  it("changes a person's role and removes a person", async () => {
    const carol = share('s1', 'carol@example.com', 'viewer');
    onRequest(
      'GET',
      SHARES,
      { status: 200, data: [carol] },
      { status: 200, data: [{ ...carol, role: 'editor' }] },
      { status: 200, data: [] },
    );
    onRequest('PATCH', `${SHARES}/s1`, { status: 200, data: { ...carol, role: 'editor' } });
    onRequest('DELETE', `${SHARES}/s1`, { status: 204 });
    renderSharePopup();
    const region = await people();
    const role = await within(region).findByRole('combobox', { name: 'Role of carol@example.com' });
    fireEvent.change(role, { target: { value: 'editor' } });
    await waitFor(() => expect(requestsTo('PATCH', `${SHARES}/s1`)).toHaveLength(1));
    expect(requestsTo('PATCH', `${SHARES}/s1`)[0]?.body).toEqual({ role: 'editor' });
    await waitFor(() =>
      expect((within(region).getByRole('combobox', { name: 'Role of carol@example.com' }) as HTMLSelectElement).value).toBe('editor'),
    );

    fireEvent.click(within(region).getByRole('button', { name: 'Remove carol@example.com' }));
    await waitFor(() => expect(requestsTo('DELETE', `${SHARES}/s1`)).toHaveLength(1));
    expect(await within(region).findByText('Only you have access')).toBeTruthy();
  });

  it('says so when the share was already gone', async () => {
    onRequest('GET', SHARES, { status: 200, data: [share('s1', 'carol@example.com', 'viewer')] });
    onRequest('DELETE', `${SHARES}/s1`, { status: 404, data: errorBody('SHARE_NOT_FOUND') });
    renderSharePopup();
    const region = await people();
    fireEvent.click(await within(region).findByRole('button', { name: 'Remove carol@example.com' }));
    expect((await within(region).findByRole('alert')).textContent).toBe('This share no longer exists');
  });
});

describe('people with access, in the details panel', () => {
  it("shows a folder's people, and adds one for the folder", async () => {
    const folder = makeFolder('Family photos');
    mockDrive({ folders: [folder] });
    onRequest('GET', '/share-service/links', { status: 200, data: { links: [] } });
    onRequest('GET', SHARES, { status: 200, data: [] });
    onRequest('POST', SHARES, { status: 201, data: share('s9', 'dan@example.com', 'viewer', folder._id) });
    renderApp('/home', { user: testUser });
    fireEvent.click(await screen.findByRole('option', { name: 'Family photos' }));
    const panel = screen.getByRole('complementary', { name: 'Details' });
    const region = await within(panel).findByRole('region', { name: 'People with access' });
    fireEvent.change(within(region).getByRole('textbox', { name: 'E-mail of the person to add' }), {
      target: { value: 'dan@example.com' },
    });
    fireEvent.click(within(region).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(requestsTo('POST', SHARES)).toHaveLength(1));
    expect(requestsTo('POST', SHARES)[0]?.body).toEqual({
      itemType: 'folder',
      itemId: folder._id,
      email: 'dan@example.com',
      role: 'viewer',
    });
    expect(requestsTo('GET', SHARES)[0]?.params).toEqual({ itemType: 'folder', itemId: folder._id });
  });

  it('for an item shared with the account: owner and role, no links and no people', async () => {
    const shared = {
      role: 'viewer' as const,
      owner: { id: 'acc-o', email: 'owner@example.com' },
      rootId: 'root-1',
      rootType: 'folder' as const,
    };
    const file = makeFile('minutes.txt', { shared });
    mockDrive({ files: [file] });
    renderApp('/search/minutes', { user: testUser });
    fireEvent.click(await screen.findByRole('option', { name: 'minutes.txt' }));
    const panel = screen.getByRole('complementary', { name: 'Details' });
    expect(panel.textContent).toContain('owner@example.com');
    expect(panel.textContent).toContain('Viewer');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(panel).queryByRole('region', { name: 'People with access' })).toBeNull();
    expect(within(panel).queryByTestId('item-links')).toBeNull();
    expect(requestsTo('GET', SHARES)).toHaveLength(0);
  });
});
