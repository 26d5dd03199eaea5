import type { ShareLinkDto } from '@nimbus/common';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { createAppStore } from '../../state/store';
import { LinkOptionsDialog } from './LinkOptionsDialog';
import { describe, expect, it } from 'vitest';
import { onRequest, requests } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import { makeFile, mockDrive } from '../../test/drive-fixtures';

const link = (overrides: Partial<ShareLinkDto> = {}): ShareLinkDto => ({
  id: 'l1',
  kind: 'view',
  itemType: 'folder',
  itemId: 'd1',
  itemName: 'Holiday',
  token: 'tok_0123456789abcdef',
  hasPassword: true,
  expiresAt: null,
  maxDownloads: 5,
  downloads: 2,
  allowDownload: true,
  maxFileBytes: null,
  maxFiles: null,
  filesReceived: 0,
  createdAt: '2026-11-20T10:00:00.000Z',
  lastAccessAt: null,
  active: true,
  ...overrides,
});

describe('Shared page', () => {
  it('lists every link with its options and use, and revokes one after confirming', async () => {
    mockDrive();
    onRequest(
      'GET',
      '/share-service/links',
      {
        status: 200,
        data: {
          links: [
            link(),
            link({
              id: 'l2',
              kind: 'drop',
              itemName: 'Inbox',
              hasPassword: false,
              maxDownloads: null,
              filesReceived: 3,
              maxFiles: 10,
              active: false,
            }),
          ],
        },
      },
      { status: 200, data: { links: [link()] } },
    );
    onRequest('DELETE', '/share-service/links/l2', { status: 204 });
    onRequest('GET', '/share-service/file-links', { status: 200, data: [] });
    renderApp('/shared', { user: testUser });
    const items = await screen.findAllByTestId('share-link');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Folder: Holiday');
    expect(items[0]!.textContent).toContain('View · password · 2/5 downloads');
    expect(items[1]!.textContent).toContain('Upload only · 3/10 files received');
    expect(items[1]!.textContent).toContain('inactive');

    fireEvent.click(within(items[1]!).getByRole('button', { name: 'Revoke link to Inbox' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.getAllByTestId('share-link')).toHaveLength(1));
    expect(requests.some((r) => r.method === 'DELETE' && r.url === '/share-service/links/l2')).toBe(true);
  });

  it('edits a link: a new password, no download limit, view only', async () => {
    mockDrive();
    onRequest('GET', '/share-service/links', { status: 200, data: { links: [link()] } });
    onRequest('GET', '/share-service/file-links', { status: 200, data: [] });
    onRequest('PATCH', '/share-service/links/l1', (request) => ({ status: 200, data: { ...link(), ...(request.body as object) } }));
    renderApp('/shared', { user: testUser });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit link to Holiday' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit link' });
    fireEvent.change(within(dialog).getByLabelText('New password (leave empty to keep it)'), { target: { value: 'new secret' } });
    fireEvent.change(within(dialog).getByLabelText('Maximum downloads (optional)'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByLabelText('Allow download'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Link Updated')).toBeTruthy();
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch?.body).toEqual({ expiresAt: null, maxDownloads: null, allowDownload: false, password: 'new secret' });
  });

  it('lists the files shared with the share popup, and makes one private', async () => {
    mockDrive();
    const shared = makeFile('contract.pdf', { metadata: { linkType: 'one', link: 'secret' } });
    onRequest('GET', '/share-service/links', { status: 200, data: { links: [] } });
    onRequest('GET', '/share-service/file-links', { status: 200, data: [shared] }, { status: 200, data: [] });
    onRequest('PATCH', `/file-service/remove-link/${shared._id}`, {
      status: 200,
      data: { ...shared, metadata: { ...shared.metadata, linkType: undefined, link: undefined } },
    });
    renderApp('/shared', { user: testUser });
    const row = await screen.findByTestId('file-link');
    expect(row.textContent).toContain('contract.pdf');
    expect(row.textContent).toContain('Temporary');
    fireEvent.click(within(row).getByRole('button', { name: 'Make private' }));
    expect(await screen.findByText('Link Removed')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('file-link')).toBeNull());
  });

  it('creates an upload-only link for a folder from the dialog', async () => {
    mockDrive({ folders: [] });
    onRequest('GET', '/share-service/links', { status: 200, data: { links: [] } });
    onRequest('POST', '/share-service/links', (request) => ({ status: 201, data: link({ ...(request.body as object), id: 'l3' }) }));
    render(
      <AppProviders store={createAppStore()} queryClient={createQueryClient()}>
        <LinkOptionsDialog item={{ type: 'folder', id: 'd9', name: 'Inbox' }} onClose={() => undefined} />
      </AppProviders>,
    );
    fireEvent.change(screen.getByLabelText('Visitors can'), { target: { value: 'drop' } });
    fireEvent.change(screen.getByLabelText('Largest file in MB (optional)'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Maximum number of files (optional)'), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      itemType: 'folder',
      itemId: 'd9',
      kind: 'drop',
      expiresAt: null,
      maxFiles: 20,
      maxFileBytes: 2 * 1024 * 1024,
    });
  });
});
