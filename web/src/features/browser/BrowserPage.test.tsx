import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import { makeFile, makeFolder, mockDrive } from '../../test/drive-fixtures';

const heading = (name: string) => screen.findByRole('heading', { name });

describe('home page', () => {
  it('shows Quick Access, "Home Folders" and "Home Files" with their list calls', async () => {
    const folder = makeFolder('Projects');
    const file = makeFile('report.pdf');
    mockDrive({ folders: [folder], files: [file], quick: [file] });
    renderApp('/home', { user: testUser });
    await heading('Home Folders');
    await heading('Home Files');
    expect(await screen.findByRole('button', { name: 'Quick Access' })).toBeTruthy();
    expect(await screen.findByRole('option', { name: 'Projects' })).toBeTruthy();
    const recent = await screen.findByRole('listbox', { name: 'Recent files' });
    expect(within(recent).getByRole('option', { name: 'report.pdf' })).toBeTruthy();
    expect(requestsTo('GET', '/file-service/list')[0]?.params).toEqual({ parent: '/', sortBy: 'date_desc', limit: '50' });
    expect(requestsTo('GET', '/folder-service/list')[0]?.params).toEqual({ parent: '/', sortBy: 'date_desc' });
    expect(requestsTo('GET', '/file-service/quick-list')[0]?.params).toEqual({ limit: 20 });
  });

  it('titles the folders "No Folders" when there are none, and Quick Access collapses', async () => {
    mockDrive({ quick: [makeFile('a.txt')] });
    renderApp('/home', { user: testUser });
    await heading('No Folders');
    const toggle = await screen.findByRole('button', { name: 'Quick Access' });
    await screen.findByRole('listbox', { name: 'Recent files' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox', { name: 'Recent files' })).toBeNull();
  });

  it('inside a folder: breadcrumb bar, "Folders" and "Files", no Quick Access', async () => {
    const parent = makeFolder('Projects');
    const child = makeFolder('Inner', { parent: parent._id });
    mockDrive({ folders: [child], files: [makeFile('plan.txt')], info: [parent] });
    const { router } = renderApp(`/folder/${parent._id}`, { user: testUser });
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/home');
    await within(crumbs).findByRole('button', { name: 'Projects' });
    await heading('Folders');
    await heading('Files');
    expect(screen.queryByRole('button', { name: 'Quick Access' })).toBeNull();
    expect(requestsTo('GET', '/file-service/list')[0]?.params).toMatchObject({ parent: parent._id });

    fireEvent.click(within(crumbs).getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('search results are titled "Search" and "Files" and search the whole drive', async () => {
    mockDrive({ folders: [makeFolder('cats')], files: [makeFile('cats.png')] });
    renderApp('/search/cats', { user: testUser });
    await heading('Search');
    await heading('Files');
    expect(requestsTo('GET', '/file-service/list')[0]?.params).toMatchObject({ parent: '/', search: 'cats' });
    expect(requestsTo('GET', '/folder-service/list')[0]?.params).toMatchObject({ search: 'cats' });
  });

  it('the trash shows its notice, the "Trash" title and lists in trash mode', async () => {
    mockDrive({ folders: [makeFolder('old')], files: [makeFile('old.txt')] });
    renderApp('/trash', { user: testUser });
    await screen.findByRole('heading', { name: 'Trash', level: 2 });
    expect(screen.getByRole('note').textContent).toBe('Items in the trash may be automatically deleted depending on the servers settings');
    expect(requestsTo('GET', '/file-service/list')[0]?.params).toMatchObject({ trashMode: 'true' });
    expect(requestsTo('GET', '/folder-service/list')[0]?.params).toMatchObject({ trashMode: 'true' });
  });

  it('a folder in the trash links back to Trash', async () => {
    const folder = makeFolder('old', { trashed: true });
    mockDrive({ info: [folder] });
    renderApp(`/folder-trash/${folder._id}`, { user: testUser });
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Trash' }).getAttribute('href')).toBe('/trash');
    expect(screen.getByRole('note')).toBeTruthy();
  });
});

describe('files area', () => {
  it('list view has the columns Name, Size, Created, Actions with list dates and byte sizes', async () => {
    localStorage.setItem(STORAGE_KEYS.listMode, 'true');
    mockDrive({ files: [makeFile('notes.markdown', { length: 1536 })] });
    renderApp('/home', { user: testUser });
    const grid = await screen.findByRole('grid', { name: 'Files' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Size', 'Created', 'Actions']);
    const row = await within(grid).findByRole('row', { name: 'notes.markdown' });
    expect(
      within(row)
        .getAllByRole('gridcell')
        .map((cell) => cell.textContent),
    ).toEqual(['MARnotes.markdown', '1.5 KB', '01/05/25 03:07pm', '']);
  });

  it('grid cards show a 4-character badge and the created date; the toggle saves list view', async () => {
    mockDrive({ files: [makeFile('notes.markdown'), makeFile('README')] });
    renderApp('/home', { user: testUser });
    const card = await screen.findByRole('option', { name: 'notes.markdown' });
    expect(card.textContent).toContain('MARK');
    expect(card.textContent).toContain('Created 01/05/25 03:07pm');
    expect((await screen.findByRole('option', { name: 'README' })).textContent).toContain('UNK');

    fireEvent.click(screen.getByRole('button', { name: 'List view' }));
    expect(localStorage.getItem(STORAGE_KEYS.listMode)).toBe('true');
    await screen.findByRole('grid', { name: 'Files' });
    fireEvent.click(screen.getByRole('button', { name: 'Grid view' }));
    expect(localStorage.getItem(STORAGE_KEYS.listMode)).toBeNull();
  });

  it('the sort control switches Modified/Name and the direction, saves them and reloads the lists', async () => {
    mockDrive({ files: [makeFile('a.txt')] });
    renderApp('/home', { user: testUser });
    const select = await screen.findByRole('combobox', { name: 'Sort by' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Modified', 'Name']);
    fireEvent.change(select, { target: { value: 'name' } });
    fireEvent.click(screen.getByRole('button', { name: /Sort direction/ }));
    expect(localStorage.getItem(STORAGE_KEYS.sortName)).toBe('true');
    expect(localStorage.getItem(STORAGE_KEYS.orderAsc)).toBe('true');
    await waitFor(() => expect(requestsTo('GET', '/file-service/list').at(-1)?.params.sortBy).toBe('alp_asc'));
    expect(requestsTo('GET', '/folder-service/list').at(-1)?.params.sortBy).toBe('alp_asc');
  });

  it('shows thumbnails when a file has one and "Load thumbnails" is on', async () => {
    mockDrive({ files: [makeFile('cat.jpg', { metadata: { hasThumbnail: true, thumbnailID: 'th-1' } })] });
    const { container, store } = renderApp('/home', { user: testUser });
    await screen.findByRole('option', { name: 'cat.jpg' });
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/file-service/thumbnail/th-1');
    store.dispatch({ type: 'general/setLoadThumbnailsDisabled', payload: true });
    await waitFor(() => expect(container.querySelector('img')).toBeNull());
  });
});

describe('detail panel', () => {
  it('prompts until something is selected, then shows its details and closes', async () => {
    const longName = `${'quarterly-financial-statement-'.repeat(3)}final-version.pdf`;
    mockDrive({
      files: [makeFile(longName, { length: 2 * 1024 ** 2, metadata: { linkType: 'public', link: 'x' } })],
      folders: [makeFolder('Docs')],
    });
    renderApp('/home', { user: testUser });
    const panel = await screen.findByRole('complementary', { name: 'Details' });
    expect(panel.textContent).toContain("Select a file or folder to view it's details");

    fireEvent.click(await screen.findByRole('option', { name: longName }));
    const name = within(panel).getByRole('heading');
    expect(name.textContent).toHaveLength(66);
    expect(name.textContent).toMatch(/^quarterly-financial-.*\.\.\..*final-version\.pdf$/);
    expect(panel.textContent).toContain('PDF');
    expect(panel.textContent).toContain('2 MB');
    expect(panel.textContent).toContain('01/05/2025');
    expect(panel.textContent).toContain('Public');

    fireEvent.click(screen.getByRole('option', { name: 'Docs' }));
    expect(within(panel).getByRole('heading').textContent).toBe('Docs');
    expect(panel.textContent).toContain('Folder');
    expect(panel.textContent).toContain('12/31/2024');
    expect(panel.textContent).not.toContain('Access');

    fireEvent.click(within(panel).getByRole('button', { name: 'Close details' }));
    expect(panel.textContent).toContain("Select a file or folder to view it's details");
  });
});
