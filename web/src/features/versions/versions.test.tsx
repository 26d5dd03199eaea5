import type { FileDto, FileVersionListDto, ShareRole, SharedAccessDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeFile, mockDrive } from '../../test/drive-fixtures';
import { onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const toastText = (text: string) => screen.findByText(text, { selector: '.Toastify *' });
const HOUR = 3600_000;

function versionList(now: number): FileVersionListDto {
  return {
    current: {
      size: 2048,
      sha256: 'c'.repeat(64),
      contentType: 'image/png',
      createdAt: new Date(now - 5 * 60_000).toISOString(),
      author: { account: { id: 'user-1', email: 'ada@example.com' }, via: null },
    },
    versions: [
      {
        id: 'ver-2',
        size: 1024,
        sha256: 'b'.repeat(64),
        contentType: 'image/png',
        createdAt: new Date(now - 3 * HOUR).toISOString(),
        replacedAt: new Date(now - 5 * 60_000).toISOString(),
        author: { account: { id: 'acc-bob', email: 'bob@example.com' }, via: 'Laptop rclone' },
      },
      {
        id: 'ver-1',
        size: 512,
        sha256: 'a'.repeat(64),
        contentType: 'application/pdf',
        createdAt: new Date(now - 3 * 24 * HOUR).toISOString(),
        replacedAt: new Date(now - 3 * HOUR).toISOString(),
        author: { account: null, via: null },
      },
    ],
  };
}

/** A file of the account (or shared with it as `role`) selected in the browser, with its details panel open. */
async function openVersions(role: ShareRole | 'owner' = 'owner') {
  const shared: SharedAccessDto | undefined =
    role === 'owner' ? undefined : { role, owner: { id: 'acc-o', email: 'owner@example.com' }, rootId: 'root-1', rootType: 'folder' };
  const file = makeFile('photo.png', { shared, metadata: { contentType: 'image/png' } });
  mockDrive({ files: [file] });
  onRequest('GET', '/share-service/links', { status: 200, data: { links: [] } });
  onRequest('GET', '/item-share-service/shares', { status: 200, data: [] });
  onRequest('GET', `/file-service/versions/${file._id}`, { status: 200, data: versionList(Date.now()) });
  const view = renderApp(role === 'owner' ? '/home' : '/search/photo', { user: testUser });
  fireEvent.click(await screen.findByRole('option', { name: 'photo.png' }));
  const panel = screen.getByRole('complementary', { name: 'Details' });
  const list = await within(panel).findByRole('list', { name: 'Versions' });
  return { file, panel, list, ...view };
}

const entries = (list: HTMLElement) => within(list).getAllByTestId('version');
const buttonsOf = (entry: HTMLElement) =>
  within(entry)
    .getAllByRole('button')
    .map((button) => button.textContent);

describe("a file's versions in the details panel", () => {
  it('lists the current content, then each version with its time, size and who stored it; the owner has every action', async () => {
    const { list, panel } = await openVersions();
    const [current, newer, older] = entries(list);
    expect(within(current!).getByText('Current version')).toBeTruthy();
    expect(current!.textContent).toContain('5 minutes ago');
    expect(current!.textContent).toContain('2 KB');
    expect(current!.textContent).toContain('ada@example.com');
    expect(newer!.textContent).toContain('3 hours ago');
    expect(newer!.textContent).toContain('bob@example.com via Laptop rclone');
    expect(newer!.textContent).toContain('1 KB');
    expect(older!.textContent).toContain('3 days ago');
    expect(older!.textContent).toContain('512 B');
    expect(buttonsOf(newer!)).toEqual(['Download', 'Preview', 'Restore', 'Delete']);
    // A PDF is not previewed in the popup, as the current one would not be.
    expect(buttonsOf(older!)).toEqual(['Download', 'Restore', 'Delete']);
    expect(within(panel).getByRole('button', { name: 'Upload new version' })).toBeTruthy();
  });

  it('restores a version after confirming: the restore call, "Version restored", the list and the file refreshed', async () => {
    const { file, list, store } = await openVersions();
    const restored: FileDto = { ...file, length: 1024, metadata: { ...file.metadata, size: 1024 } };
    onRequest('POST', `/file-service/versions/${file._id}/ver-2/restore`, { status: 200, data: restored });
    const before = requestsTo('GET', `/file-service/versions/${file._id}`).length;
    fireEvent.click(within(entries(list)[1]!).getByRole('button', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore this version?' });
    expect(dialog.textContent).toContain('The current content is kept as a version.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await toastText('Version restored');
    expect(requestsTo('POST', `/file-service/versions/${file._id}/ver-2/restore`)).toHaveLength(1);
    await waitFor(() => expect(requestsTo('GET', `/file-service/versions/${file._id}`).length).toBeGreaterThan(before));
    expect(store.getState().selection.mainSection.file?.length).toBe(1024);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('deletes a version after confirming ("Version deleted"); Cancel sends nothing', async () => {
    const { file, list } = await openVersions();
    onRequest('DELETE', `/file-service/versions/${file._id}/ver-1`, { status: 200, data: { message: 'deleted' } });
    fireEvent.click(within(entries(list)[2]!).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete this version?' })).getByRole('button', { name: 'Cancel' }));
    expect(requestsTo('DELETE', `/file-service/versions/${file._id}/ver-1`)).toHaveLength(0);
    fireEvent.click(within(entries(list)[2]!).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete this version?' })).getByRole('button', { name: 'Delete' }));
    await toastText('Version deleted');
    expect(requestsTo('DELETE', `/file-service/versions/${file._id}/ver-1`)).toHaveLength(1);
  });

  it('a failed restore says so', async () => {
    const { file, list } = await openVersions();
    onRequest('POST', `/file-service/versions/${file._id}/ver-2/restore`, {
      status: 404,
      data: { error: 'gone', code: 'VERSION_NOT_FOUND', requestId: 't' },
    });
    fireEvent.click(within(entries(list)[1]!).getByRole('button', { name: 'Restore' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Restore this version?' })).getByRole('button', { name: 'Restore' }));
    await toastText('Error restoring version');
  });

  it('a viewer sees the list and downloads only; an editor also restores and uploads, but never deletes', async () => {
    const viewer = await openVersions('viewer');
    expect(buttonsOf(entries(viewer.list)[1]!)).toEqual(['Download', 'Preview']);
    expect(within(viewer.panel).queryByRole('button', { name: 'Upload new version' })).toBeNull();
    viewer.unmount();

    const editor = await openVersions('editor');
    expect(buttonsOf(entries(editor.list)[1]!)).toEqual(['Download', 'Preview', 'Restore']);
    expect(within(editor.panel).getByRole('button', { name: 'Upload new version' })).toBeTruthy();
  });

  it("previews an image version in the preview popup, from the version's inline download", async () => {
    const { file, list } = await openVersions();
    fireEvent.click(within(entries(list)[1]!).getByRole('button', { name: 'Preview' }));
    const preview = await screen.findByTestId('file-preview');
    expect(preview.getAttribute('aria-label')).toMatch(/^photo\.png \(version of /);
    expect(within(preview).getByTestId('preview-image').getAttribute('src')).toBe(
      `/file-service/versions/${file._id}/ver-2/download?inline=true`,
    );
    expect(within(preview).queryByRole('button', { name: 'File actions' })).toBeNull();
    fireEvent.click(within(preview).getByRole('button', { name: 'Close preview' }));
    await waitFor(() => expect(screen.queryByTestId('file-preview')).toBeNull());
  });

  it('downloads a version from its download URL', async () => {
    const { file, list } = await openVersions();
    onRequest('POST', '/user-service/get-token', { status: 200, data: {} });
    const clicked: string[] = [];
    const spy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    fireEvent.click(within(entries(list)[2]!).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(clicked).toEqual([`/file-service/versions/${file._id}/ver-1/download`]));
    spy.mockRestore();
  });
});

describe("a file's versions in the details popup (screens without the details panel)", () => {
  it('lists them under the file details, the current one without a second Download', async () => {
    const file = makeFile('notes.bin');
    mockDrive({ files: [file] });
    onRequest('GET', `/file-service/versions/${file._id}`, { status: 200, data: versionList(Date.now()) });
    renderApp('/home', { user: testUser });
    fireEvent.keyDown(await screen.findByRole('option', { name: 'notes.bin' }), { key: 'Enter' });
    const details = await screen.findByTestId('file-details');
    const list = await within(details).findByRole('list', { name: 'Versions' });
    expect(entries(list)).toHaveLength(3);
    expect(within(details).getByRole('button', { name: 'Upload new version' })).toBeTruthy();
    // The popup's own Download is the current content's.
    expect(within(details).getAllByRole('button', { name: 'Download' })).toHaveLength(3);
    expect(within(entries(list)[0]!).queryByRole('button')).toBeNull();
  });
});

describe('upload new version', () => {
  it('from the item menu: picks a file and posts it as the new content, with its row in the upload panel', async () => {
    const file = makeFile('report.pdf');
    mockDrive({ files: [file] });
    const stored: FileDto = { ...file, length: 5 };
    onRequest('POST', `/file-service/upload-version/${file._id}`, { status: 200, data: stored });
    renderApp('/home', { user: testUser });
    fireEvent.contextMenu(await screen.findByRole('option', { name: 'report.pdf' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Upload new version' }));
    const picker = await screen.findByLabelText('New version of report.pdf');
    fireEvent.change(picker, { target: { files: [new File(['hello'], 'report-v2.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(requestsTo('POST', `/file-service/upload-version/${file._id}`)).toHaveLength(1));
    const body = requestsTo('POST', `/file-service/upload-version/${file._id}`)[0]?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('file') as File).name).toBe('report-v2.pdf');
    const row = await screen.findByTestId('upload-row');
    expect(row.textContent).toContain('report-v2.pdf');
    expect(screen.queryByLabelText('New version of report.pdf')).toBeNull();
  });

  it('from the details panel; a dismissed picker sends nothing', async () => {
    const { file, panel } = await openVersions();
    onRequest('POST', `/file-service/upload-version/${file._id}`, { status: 200, data: file });
    fireEvent.click(within(panel).getByRole('button', { name: 'Upload new version' }));
    fireEvent(screen.getByLabelText('New version of photo.png'), new Event('cancel'));
    expect(screen.queryByLabelText('New version of photo.png')).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Upload new version' }));
    fireEvent.change(screen.getByLabelText('New version of photo.png'), { target: { files: [new File(['x'], 'photo.png')] } });
    await waitFor(() => expect(requestsTo('POST', `/file-service/upload-version/${file._id}`)).toHaveLength(1));
  });
});
