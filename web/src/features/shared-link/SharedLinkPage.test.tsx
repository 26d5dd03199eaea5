import type { SharedLinkInfoDto, SharedListingDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorBody, onRequest, requests } from '../../test/http-mock';
import { renderApp } from '../../test/render-app';

const BASE = '/share-service/public/tok_0123456789abcdef';
const PAGE = '/s/tok_0123456789abcdef';

const folderInfo: SharedLinkInfoDto = {
  kind: 'view',
  itemType: 'folder',
  passwordRequired: false,
  name: 'Holiday',
  allowDownload: true,
  expiresAt: null,
  folder: { id: 'root', name: 'Holiday' },
};

const file = (id: string, filename: string, extra: Partial<SharedListingDto['files'][number]> = {}) => ({
  id,
  filename,
  size: 2048,
  contentType: 'image/jpeg',
  uploadDate: '2026-01-02T10:00:00.000Z',
  hasThumbnail: true,
  isVideo: false,
  isImage: true,
  ...extra,
});

describe('shared link page', () => {
  it('asks for the password, says when it is wrong, then shows the folder', async () => {
    // Once unlocked, the server sees the unlock cookie and answers the link in full.
    onRequest(
      'GET',
      BASE,
      { status: 200, data: { kind: 'view', itemType: 'folder', passwordRequired: true } },
      { status: 200, data: folderInfo },
    );
    onRequest(
      'POST',
      `${BASE}/unlock`,
      { status: 401, data: errorBody('WRONG_PASSWORD', 'Wrong password') },
      { status: 200, data: folderInfo },
    );
    onRequest('GET', `${BASE}/list`, {
      status: 200,
      data: {
        folder: { id: 'root', name: 'Holiday' },
        path: [{ id: 'root', name: 'Holiday' }],
        folders: [{ id: 'd1', name: 'Day 1' }],
        files: [file('f1', 'beach.jpg')],
        next: null,
      },
    });
    renderApp(PAGE);
    expect(await screen.findByRole('heading', { name: 'This link is protected' })).toBeTruthy();
    expect(screen.queryByText('Holiday')).toBeNull();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'guess' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong password');
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'right one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('button', { name: 'Day 1' })).toBeTruthy();
    expect(requests.filter((r) => r.url === `${BASE}/unlock`).map((r) => r.body)).toEqual([
      { password: 'guess' },
      { password: 'right one' },
    ]);
    const card = screen.getByTestId('shared-file');
    expect(within(card).getByRole('link', { name: 'Download beach.jpg' }).getAttribute('href')).toBe(`${BASE}/files/f1/download`);
    expect(card.querySelector('img')?.getAttribute('src')).toBe(`${BASE}/files/f1/thumbnail`);
    expect(screen.getByRole('link', { name: 'Download all' }).getAttribute('href')).toBe(`${BASE}/zip`);
  });

  it('goes into a subfolder and back, and opens a photo in the preview', async () => {
    onRequest('GET', BASE, { status: 200, data: folderInfo });
    onRequest('GET', `${BASE}/list`, (request) =>
      request.params.folder === 'd1'
        ? {
            status: 200,
            data: {
              folder: { id: 'd1', name: 'Day 1' },
              path: [
                { id: 'root', name: 'Holiday' },
                { id: 'd1', name: 'Day 1' },
              ],
              folders: [],
              files: [file('f2', 'notes.txt', { isImage: false, hasThumbnail: false, contentType: 'text/plain' })],
              next: null,
            },
          }
        : {
            status: 200,
            data: {
              folder: { id: 'root', name: 'Holiday' },
              path: [{ id: 'root', name: 'Holiday' }],
              folders: [{ id: 'd1', name: 'Day 1' }],
              files: [file('f1', 'beach.jpg')],
              next: null,
            },
          },
    );
    renderApp(PAGE);
    fireEvent.click(await screen.findByRole('button', { name: 'Day 1' }));
    await waitFor(() => expect(screen.getByRole('navigation', { name: 'Folder path' }).textContent).toBe('Holiday/Day 1'));
    expect(screen.getByText('notes.txt')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download all' }).getAttribute('href')).toBe(`${BASE}/zip?folder=d1`);
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Folder path' })).getByRole('button', { name: 'Holiday' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open beach.jpg' }));
    const preview = screen.getByRole('dialog', { name: 'beach.jpg' });
    expect(preview.querySelector('img')?.getAttribute('src')).toBe(`${BASE}/files/f1/preview`);
    fireEvent.click(within(preview).getByRole('button', { name: 'Close preview' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a view-only file link shows the file without a Download', async () => {
    onRequest('GET', BASE, {
      status: 200,
      data: {
        kind: 'view',
        itemType: 'file',
        passwordRequired: false,
        name: 'plan.pdf',
        allowDownload: false,
        expiresAt: null,
        file: file('f9', 'plan.pdf', { isImage: false, hasThumbnail: false }),
      },
    });
    renderApp(PAGE);
    expect(await screen.findByText('The owner allows viewing only.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
  });

  it('tells an expired link from a missing one', async () => {
    onRequest('GET', BASE, { status: 410, data: errorBody('LINK_EXPIRED', 'This link has expired') });
    renderApp(PAGE);
    expect((await screen.findByRole('alert')).textContent).toContain('This link has expired');
    onRequest('GET', BASE, { status: 404, data: errorBody('NOT_FOUND') });
    renderApp(PAGE);
    expect(await screen.findByText('This link is not available')).toBeTruthy();
  });

  it('an upload-only link shows the drop area and its limits, nothing of the folder', async () => {
    onRequest('GET', BASE, {
      status: 200,
      data: {
        kind: 'drop',
        itemType: 'folder',
        passwordRequired: false,
        name: 'Inbox',
        expiresAt: null,
        drop: { maxFileBytes: 1048576, maxFiles: 5, filesLeft: 2 },
      },
    });
    renderApp(PAGE);
    expect(await screen.findByRole('heading', { name: 'Send files to “Inbox”' })).toBeTruthy();
    expect(screen.getByText(/Up to 1 MB a file\. 2 more file\(s\) accepted\./)).toBeTruthy();
    expect(screen.getByTestId('drop-zone')).toBeTruthy();
    expect(requests.some((r) => r.url === `${BASE}/list`)).toBe(false);
  });
});
