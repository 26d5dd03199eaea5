import type { SharedWithMeDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeFile, makeFolder, mockDrive } from '../../test/drive-fixtures';
import { onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const owner = { id: 'acc-owner', email: 'owner@example.com' };
const folder = makeFolder('Team plans', { owner: 'acc-owner' });
const file = makeFile('budget.pdf', { metadata: { owner: 'acc-owner', hasThumbnail: true, thumbnailID: 'th-9' } });
const SHARED: SharedWithMeDto[] = [
  { shareId: 'sh-1', role: 'editor', owner, sharedAt: '2026-11-20T10:00:00.000Z', itemType: 'folder', folder },
  { shareId: 'sh-2', role: 'viewer', owner, sharedAt: '2026-11-21T10:00:00.000Z', itemType: 'file', file },
];

describe('Shared with me', () => {
  it('has its entry in the side menu, which opens the page', async () => {
    mockDrive();
    onRequest('GET', '/item-share-service/shared-with-me', { status: 200, data: [] });
    const { router } = renderApp('/home', { user: testUser });
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    fireEvent.click(within(menu).getByRole('link', { name: 'Shared with me' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shared-with-me'));
    expect(await screen.findByRole('heading', { name: 'Shared with me', level: 1 })).toBeTruthy();
    expect(await screen.findByText('Nothing has been shared with you yet.')).toBeTruthy();
    expect(within(menu).getByRole('link', { name: 'Shared with me' }).getAttribute('aria-current')).toBe('page');
  });

  it("lists the shared folders and files with the owner's e-mail, the role and the date shared", async () => {
    onRequest('GET', '/item-share-service/shared-with-me', { status: 200, data: SHARED });
    const { container } = renderApp('/shared-with-me', { user: testUser });
    const folders = await screen.findByRole('listbox', { name: 'Folders' });
    const folderCard = within(folders).getByRole('option', { name: 'Team plans' });
    expect(folderCard.textContent).toContain('owner@example.com · Editor · Shared 11/20/26');
    const fileCard = await screen.findByRole('option', { name: 'budget.pdf' });
    expect(fileCard.textContent).toContain('owner@example.com · Viewer · Shared 11/21/26');
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/file-service/thumbnail/th-9');
  });

  it('opens a shared folder at /folder/{id}, and a file in its preview', async () => {
    onRequest('GET', '/item-share-service/shared-with-me', { status: 200, data: SHARED });
    mockDrive({ info: [{ ...folder, shared: { role: 'editor', owner, rootId: folder._id, rootType: 'folder' } }] });
    const { router, store } = renderApp('/shared-with-me', { user: testUser });
    const card = await screen.findByRole('option', { name: 'budget.pdf' });
    fireEvent.click(card);
    fireEvent.click(card);
    await waitFor(() => expect(store.getState().selection.popupModal.file?._id).toBe(file._id));

    const folderCard = screen.getByRole('option', { name: 'Team plans' });
    fireEvent.click(folderCard);
    fireEvent.click(folderCard);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/folder/${folder._id}`));
  });

  it('"Remove from Shared with me" leaves the share, and the item goes from the list', async () => {
    onRequest('GET', '/item-share-service/shared-with-me', { status: 200, data: SHARED }, { status: 200, data: [SHARED[1]] });
    onRequest('DELETE', '/item-share-service/shared-with-me/sh-1', { status: 204 });
    renderApp('/shared-with-me', { user: testUser });
    await screen.findByRole('option', { name: 'Team plans' });
    fireEvent.click(screen.getByRole('button', { name: 'More actions for Team plans' }));
    const menu = await screen.findByRole('menu', { name: 'Actions for Team plans' });
    // The shared folder itself: the recipient downloads it, and may not rename, move or trash it (nor select it to).
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Download', 'Remove from Shared with me']);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Remove from Shared with me' }));
    await waitFor(() => expect(requestsTo('DELETE', '/item-share-service/shared-with-me/sh-1')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Team plans' })).toBeNull());
    expect(await screen.findByText('Removed from Shared with me', { selector: '.Toastify *' })).toBeTruthy();
  });
});
