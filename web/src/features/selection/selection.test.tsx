import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSingleClickFolders } from '../../state/general.slice';
import { renderApp, testUser } from '../../test/render-app';
import { makeFile, makeFolder, mockDrive } from '../../test/drive-fixtures';
import { listClickTimer } from './click-rules';

let now = 1_000_000;
const advance = (ms: number) => {
  now += ms;
};

afterEach(() => {
  listClickTimer.reset();
});

function setup(path = '/home') {
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  const file = makeFile('report.pdf');
  const other = makeFile('notes.txt');
  const folder = makeFolder('Projects');
  mockDrive({ folders: [folder], files: [file, other] });
  const view = renderApp(path, { user: testUser });
  return { ...view, file, other, folder };
}

const option = (name: string) => screen.findByRole('option', { name });
const bar = () => screen.queryByRole('toolbar', { name: 'Selected items' });

describe('clicking items', () => {
  it('one click selects a file; a second click within 1,500 ms opens it', async () => {
    const { store, file } = setup();
    const card = await option('report.pdf');
    fireEvent.click(card);
    expect(card.getAttribute('aria-selected')).toBe('true');
    expect(store.getState().selection.mainSection).toMatchObject({ type: 'file', id: file._id });
    advance(1499);
    fireEvent.click(card);
    expect(store.getState().selection.popupModal).toEqual({ type: 'file', file });
  });

  it('a second click after 1,500 ms does not open; a third one soon after does', async () => {
    const { store } = setup();
    const card = await option('report.pdf');
    fireEvent.click(card);
    advance(1500);
    fireEvent.click(card);
    expect(store.getState().selection.popupModal.file).toBeNull();
    advance(300);
    fireEvent.click(card);
    expect(store.getState().selection.popupModal.file?.filename).toBe('report.pdf');
  });

  it('a folder opens on a second click within 1,500 ms, or at once with "Single click to enter folders"', async () => {
    const { router, store, folder } = setup();
    const card = await option('Projects');
    fireEvent.click(card);
    expect(router.state.location.pathname).toBe('/home');
    advance(800);
    fireEvent.click(card);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/folder/${folder._id}`));

    await router.navigate('/home');
    store.dispatch(setSingleClickFolders(true));
    fireEvent.click(await option('Projects'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/folder/${folder._id}`));
  });

  it('on touch a click on the selected file opens it at once', async () => {
    const { store } = setup();
    const card = await option('report.pdf');
    fireEvent.pointerDown(card, { pointerType: 'touch' });
    fireEvent.click(card);
    advance(10_000);
    fireEvent.pointerDown(card, { pointerType: 'touch' });
    fireEvent.click(card);
    expect(store.getState().selection.popupModal.file?.filename).toBe('report.pdf');
  });

  it('Ctrl/Meta-click toggles into multi-select, carrying the main selection in; the bar counts them', async () => {
    const { store, file, other, folder } = setup();
    fireEvent.click(await option('report.pdf'));
    fireEvent.click(await option('notes.txt'), { ctrlKey: true });
    expect(store.getState().selection.mainSection.id).toBe('');
    expect(store.getState().selection.multiSelectMap).toEqual({
      [file._id]: { id: file._id, type: 'file' },
      [other._id]: { id: other._id, type: 'file' },
    });
    expect(within(bar()!).getByText('2 selected')).toBeTruthy();

    // In multi-select mode any click toggles, folders included (they do not open).
    fireEvent.click(await option('Projects'));
    fireEvent.click(await option('Projects'));
    fireEvent.click(await option('Projects'));
    expect(store.getState().selection.multiSelectMap[folder._id]).toEqual({ id: folder._id, type: 'folder' });
    expect(within(bar()!).getByText('3 selected')).toBeTruthy();
    fireEvent.click(await option('report.pdf'), { metaKey: true });
    fireEvent.click(await option('notes.txt'));
    fireEvent.click(await option('Projects'));
    expect(store.getState().selection.multiSelectMode).toBe(false);
    expect(bar()).toBeNull();
  });

  it('Escape and a route change clear the selection', async () => {
    const { store, router } = setup();
    fireEvent.click(await option('report.pdf'));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(store.getState().selection.mainSection.id).toBe('');

    fireEvent.click(await option('report.pdf'), { ctrlKey: true });
    fireEvent.click(await option('notes.txt'), { ctrlKey: true });
    expect(store.getState().selection.multiSelectCount).toBe(2);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(store.getState().selection.multiSelectMode).toBe(false);

    fireEvent.click(await option('report.pdf'), { ctrlKey: true });
    await router.navigate('/trash');
    await waitFor(() => expect(store.getState().selection.multiSelectMode).toBe(false));
  });

  it('the bar offers trash, move and download outside the trash; restore and delete in it', async () => {
    setup();
    fireEvent.click(await option('report.pdf'), { ctrlKey: true });
    const actions = () =>
      within(bar()!)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label'));
    expect(actions()).toEqual(['Clear selection', 'Trash', 'Move', 'Download']);
    fireEvent.click(within(bar()!).getByRole('button', { name: 'Clear selection' }));
    expect(bar()).toBeNull();
  });

  it('in the trash the bar offers restore and delete', async () => {
    setup('/trash');
    fireEvent.click(await option('report.pdf'), { ctrlKey: true });
    expect(
      within(bar()!)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Clear selection', 'Restore', 'Delete']);
  });
});

describe('context menus', () => {
  const entries = () =>
    within(screen.getByRole('menu'))
      .getAllByRole('menuitem')
      .map((item) => item.textContent);

  it('right-click on a file: multi-select, rename, share, download, upload new version, move, trash', async () => {
    setup();
    fireEvent.contextMenu(await option('report.pdf'), { clientX: 100, clientY: 120 });
    expect(screen.getByRole('menu', { name: 'Actions for report.pdf' })).toBeTruthy();
    expect(entries()).toEqual(['Multi-select', 'Rename', 'Share', 'Download', 'Upload new version', 'Move', 'Trash']);
  });

  it('folders have no share and no new version, but a restore as it was; the menu closes on Escape', async () => {
    setup();
    fireEvent.contextMenu(await option('Projects'));
    expect(entries()).toEqual(['Multi-select', 'Rename', 'Download', 'Move', 'Restore as it was…', 'Trash']);
    fireEvent.keyDown(screen.getAllByRole('menuitem')[0]!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('in the trash only multi-select, restore and delete; the breadcrumb has no multi-select', async () => {
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const folder = makeFolder('old', { trashed: true });
    mockDrive({ files: [makeFile('gone.txt', { metadata: { trashed: true } })], info: [folder] });
    renderApp(`/folder-trash/${folder._id}`, { user: testUser });
    fireEvent.contextMenu(await option('gone.txt'));
    expect(entries()).toEqual(['Multi-select', 'Restore', 'Delete']);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    fireEvent.click(await within(await screen.findByRole('navigation', { name: 'Breadcrumb' })).findByRole('button', { name: 'old' }));
    expect(entries()).toEqual(['Restore', 'Delete']);
  });

  it('"Multi-select" starts multi-select with the item', async () => {
    const { store, file } = setup();
    fireEvent.contextMenu(await option('report.pdf'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Multi-select' }));
    expect(store.getState().selection.multiSelectMap).toEqual({ [file._id]: { id: file._id, type: 'file' } });
  });

  it('a long press (500 ms) on touch opens the menu, and the release neither selects nor opens', async () => {
    const { store } = setup();
    const card = await option('report.pdf');
    vi.useFakeTimers();
    try {
      fireEvent.touchStart(card, { touches: [{ clientX: 50, clientY: 60 }] });
      vi.advanceTimersByTime(499);
      expect(screen.queryByRole('menu')).toBeNull();
      vi.advanceTimersByTime(1);
    } finally {
      vi.useRealTimers();
    }
    expect(await screen.findByRole('menu', { name: 'Actions for report.pdf' })).toBeTruthy();
    fireEvent.touchEnd(card);
    fireEvent.click(card);
    expect(store.getState().selection.mainSection.id).toBe('');
  });

  it('moving the finger cancels the long press', async () => {
    setup();
    const card = await option('report.pdf');
    vi.useFakeTimers();
    try {
      fireEvent.touchStart(card, { touches: [{ clientX: 50, clientY: 60 }] });
      fireEvent.touchMove(card, { touches: [{ clientX: 50, clientY: 90 }] });
      vi.advanceTimersByTime(600);
    } finally {
      vi.useRealTimers();
    }
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
