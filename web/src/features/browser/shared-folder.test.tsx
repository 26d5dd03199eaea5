import type { FolderDto, ShareRole, SharedAccessDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeFile, makeFolder, mockDrive } from '../../test/drive-fixtures';
import { onRequest, requests, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const owner = { id: 'acc-owner', email: 'owner@example.com' };

/** A folder shared with the signed-in account, a folder inside it and a file in each, as the server tells them. */
function sharedTree(role: ShareRole) {
  const rootId = 'shared-root';
  const shared: SharedAccessDto = { role, owner, rootId, rootType: 'folder' };
  const root: FolderDto = { ...makeFolder('Team plans', { owner: owner.id, parent: 'owners-folder' }), _id: rootId, shared };
  const inner: FolderDto = { ...makeFolder('Drafts', { owner: owner.id, parent: rootId }), shared };
  const file = makeFile('budget.pdf', { metadata: { owner: owner.id, parent: rootId }, shared });
  mockDrive({ folders: [inner], files: [file], info: [root, inner] });
  return { root, inner, file };
}

const crumbs = () => screen.findByRole('navigation', { name: 'Breadcrumb' });
const openMenuOf = async (name: string) => {
  fireEvent.click(await screen.findByRole('button', { name: `More actions for ${name}` }));
  const menu = await screen.findByRole('menu', { name: `Actions for ${name}` });
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
};
const breadcrumbMenu = async (name: string) => {
  fireEvent.click(await within(await crumbs()).findByRole('button', { name }));
  const menu = await screen.findByRole('menu', { name: `Actions for ${name}` });
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
};
const addNewButton = () => within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('button', { name: 'ADD NEW' });

describe('a folder shared with the account', () => {
  it('starts its breadcrumb at "Shared with me", says whose it is, and "Back" returns to Shared with me', async () => {
    const { root } = sharedTree('viewer');
    onRequest('GET', '/item-share-service/shared-with-me', { status: 200, data: [] });
    const { router } = renderApp(`/folder/${root._id}`, { user: testUser });
    const nav = await crumbs();
    await within(nav).findByRole('button', { name: 'Team plans' });
    expect(within(nav).getByRole('link', { name: 'Shared with me' }).getAttribute('href')).toBe('/shared-with-me');
    expect(within(nav).queryByRole('link', { name: 'Home' })).toBeNull();
    expect(screen.getByTestId('shared-by').textContent).toBe('Shared by owner@example.com · Viewer');
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    // Highlighted under "Shared with me", not Home (the URL is a /folder/ one).
    expect(within(menu).getByRole('link', { name: 'Shared with me' }).className).toContain('bg-selected');
    expect(within(menu).getByRole('link', { name: 'Home' }).className).not.toContain('bg-selected');

    fireEvent.click(within(nav).getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shared-with-me'));
  });

  it('inside it, the breadcrumb shows the shared folder, never the owner’s folders above it', async () => {
    const { root, inner } = sharedTree('editor');
    const { router } = renderApp(`/folder/${inner._id}`, { user: testUser });
    const nav = await crumbs();
    await within(nav).findByRole('button', { name: 'Drafts' });
    const links = await within(nav).findAllByRole('link');
    await waitFor(() =>
      expect(
        within(nav)
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual(['Shared with me', 'Team plans']),
    );
    expect(links[0]?.getAttribute('href')).toBe('/shared-with-me');
    expect(within(nav).getByRole('link', { name: 'Team plans' }).getAttribute('href')).toBe(`/folder/${root._id}`);
    expect(screen.getByTestId('shared-by').textContent).toBe('Shared by owner@example.com · Editor');
    fireEvent.click(within(nav).getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/folder/${root._id}`));
  });

  it('as viewer: no upload or new folder, and the menus only download', async () => {
    const { root } = sharedTree('viewer');
    renderApp(`/folder/${root._id}`, { user: testUser });
    await screen.findByTestId('shared-by');
    expect((addNewButton() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(addNewButton());
    expect(screen.queryByRole('menuitem', { name: /Upload Files|Create Folder/ })).toBeNull();
    expect(await openMenuOf('budget.pdf')).toEqual(['Download']);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(await openMenuOf('Drafts')).toEqual(['Download']);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(await breadcrumbMenu('Team plans')).toEqual(['Download']);
  });

  it('as viewer: files dropped on the page are not uploaded', async () => {
    const { root } = sharedTree('viewer');
    renderApp(`/folder/${root._id}`, { user: testUser });
    await screen.findByTestId('shared-by');
    const file = new File(['x'], 'dropped.txt', { type: 'text/plain' });
    const dataTransfer = { types: ['Files'], files: [file], items: [], dropEffect: '' };
    const zone = screen.getByTestId('upload-drop-zone');
    fireEvent.dragEnter(zone, { dataTransfer });
    expect(zone.getAttribute('data-dragging')).toBe('false');
    fireEvent.drop(zone, { dataTransfer });
    expect(await screen.findByText('You can only view this shared folder', { selector: '.Toastify *' })).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('as editor: uploads go into the shared folder', async () => {
    const { root } = sharedTree('editor');
    onRequest('POST', '/file-service/upload', { status: 201, data: {} });
    renderApp(`/folder/${root._id}`, { user: testUser });
    await screen.findByTestId('shared-by');
    fireEvent.click(addNewButton());
    expect(screen.getByRole('menuitem', { name: 'Upload Files' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Create Folder' })).toBeTruthy();
    const input = screen.getAllByTestId('upload-files-input')[0]!;
    fireEvent.change(input, { target: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] } });
    await waitFor(() => expect(requests.filter((r) => r.url === '/file-service/upload')).toHaveLength(1));
    const form = requests.find((r) => r.url === '/file-service/upload')!.body as FormData;
    expect(form.get('parent')).toBe(root._id);
  });

  it('as editor: a new folder is made in the open shared folder', async () => {
    const { inner } = sharedTree('editor');
    onRequest('POST', '/folder-service/create', { status: 201, data: makeFolder('Ideas', { parent: inner._id }) });
    renderApp(`/folder/${inner._id}`, { user: testUser });
    await screen.findByTestId('shared-by');
    fireEvent.click(addNewButton());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Create Folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Folder' });
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Ideas' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(requestsTo('POST', '/folder-service/create')[0]?.body).toEqual({ name: 'Ideas', parent: inner._id }));
  });

  it('as editor: rename, move, trash and new versions inside it, but not of the shared folder itself; no public links', async () => {
    const { root } = sharedTree('editor');
    renderApp(`/folder/${root._id}`, { user: testUser });
    await screen.findByTestId('shared-by');
    expect(await openMenuOf('budget.pdf')).toEqual(['Multi-select', 'Rename', 'Download', 'Upload new version', 'Move', 'Trash']);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(await openMenuOf('Drafts')).toEqual(['Multi-select', 'Rename', 'Download', 'Move', 'Trash']);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(await breadcrumbMenu('Team plans')).toEqual(['Download']);
  });
});

describe('name search', () => {
  it('marks items shared with the account with a "Shared" badge', async () => {
    const shared: SharedAccessDto = { role: 'viewer', owner, rootId: 'r', rootType: 'folder' };
    mockDrive({
      folders: [makeFolder('plans (mine)'), { ...makeFolder('plans (theirs)'), shared }],
      files: [makeFile('plan.txt'), makeFile('their-plan.txt', { shared })],
    });
    renderApp('/search/plan', { user: testUser });
    expect(within(await screen.findByRole('option', { name: 'plans (theirs)' })).getByText('Shared')).toBeTruthy();
    expect(within(await screen.findByRole('option', { name: 'their-plan.txt' })).getByText('Shared')).toBeTruthy();
    expect(within(screen.getByRole('option', { name: 'plans (mine)' })).queryByText('Shared')).toBeNull();
    expect(within(screen.getByRole('option', { name: 'plan.txt' })).queryByText('Shared')).toBeNull();
  });
});
