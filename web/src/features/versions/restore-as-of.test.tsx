import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useFakeClock } from '../../test/clock';
import { makeFolder, mockDrive } from '../../test/drive-fixtures';
import { onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import { RESTORE_AS_OF_TEXT } from './RestoreAsOfDialog';
import { restoreAsOfSummary } from './version-format';

const toastText = (text: string) => screen.findByText(text, { selector: '.Toastify *' });
const RESTORE = '/folder-service/restore-as-of';

describe('restore as it was', () => {
  it("a folder's item menu: a time an hour ago by default, the explanation, Confirm restores and sums up the result", async () => {
    useFakeClock();
    vi.setSystemTime(new Date(2026, 5, 1, 12, 30));
    const folder = makeFolder('Projects');
    mockDrive({ folders: [folder] });
    onRequest('POST', RESTORE, { status: 200, data: { revertedFiles: 3, restoredFromTrash: 1, movedToTrash: 2, notRecoverable: 0 } });
    renderApp('/home', { user: testUser });
    fireEvent.contextMenu(await screen.findByRole('option', { name: 'Projects' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Restore as it was…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore Projects as it was' });
    expect(dialog.textContent).toContain(RESTORE_AS_OF_TEXT);
    const input = within(dialog).getByLabelText('As it was at') as HTMLInputElement;
    expect(input.value).toBe('2026-06-01T11:30');

    fireEvent.change(input, { target: { value: '2026-06-01T09:15' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await toastText(
      'Restored: 3 files went back to their earlier content; 1 item came back from the trash; 2 new files moved to the trash',
    );
    expect(requestsTo('POST', RESTORE)[0]?.body).toEqual({ id: folder._id, at: new Date(2026, 5, 1, 9, 15).toISOString() });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses a time to come, and keeps the dialog open with a message when the server fails', async () => {
    const folder = makeFolder('Projects');
    mockDrive({ folders: [folder] });
    onRequest('POST', RESTORE, { status: 500, data: {} });
    renderApp('/home', { user: testUser });
    fireEvent.contextMenu(await screen.findByRole('option', { name: 'Projects' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Restore as it was…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore Projects as it was' });
    fireEvent.change(within(dialog).getByLabelText('As it was at'), { target: { value: '2999-01-01T00:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose a time in the past');
    expect(requestsTo('POST', RESTORE)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('As it was at'), { target: { value: '2020-01-01T00:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Projects could not be restored. Try again.');
    expect(requestsTo('POST', RESTORE)).toHaveLength(1);
  });

  it('the whole drive, from the trash', async () => {
    mockDrive();
    onRequest('POST', RESTORE, { status: 200, data: { revertedFiles: 0, restoredFromTrash: 0, movedToTrash: 0, notRecoverable: 0 } });
    renderApp('/trash', { user: testUser });
    fireEvent.click(await screen.findByRole('button', { name: 'Restore drive as it was…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore your drive as it was' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await toastText('Nothing to restore: nothing changed since then');
    expect((requestsTo('POST', RESTORE)[0]?.body as { id: string }).id).toBe('/');
  });

  it('is not offered for a folder reached through a share', async () => {
    const shared = { role: 'editor' as const, owner: { id: 'o', email: 'o@example.com' }, rootId: 'r', rootType: 'folder' as const };
    const folder = { ...makeFolder('Team'), shared };
    mockDrive({ folders: [folder] });
    renderApp('/search/Team', { user: testUser });
    fireEvent.contextMenu(await screen.findByRole('option', { name: 'Team' }));
    expect(screen.queryByRole('menuitem', { name: 'Restore as it was…' })).toBeNull();
  });

  it('sums up each count, in the singular too', () => {
    expect(restoreAsOfSummary({ revertedFiles: 1, restoredFromTrash: 0, movedToTrash: 1, notRecoverable: 2 })).toBe(
      'Restored: 1 file went back to its earlier content; 1 new file moved to the trash; 2 files have no content kept from that time',
    );
  });
});
