import type { FileDto } from '@nimbus/common';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { fileKeys } from '../../api/query-keys';
import { setPopupSelect } from '../../state/selection.slice';
import { createAppStore } from '../../state/store';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { PopupHost } from '../popups/PopupHost';
import { previewSiblings } from './preview-siblings';

// The popups load on first use; loaded here once, a first open under a busy machine does not
// outlast findBy's wait.
await Promise.all([import('./FilePreviewPopup'), import('../popups/FileDetailsPopup')]);

const file = (id: string, kind: 'photo' | 'video' | 'doc'): FileDto => ({
  _id: id,
  filename: `${id}.${kind === 'photo' ? 'png' : kind === 'video' ? 'webm' : 'zip'}`,
  length: 10,
  uploadDate: '2025-03-05T09:05:00',
  metadata: {
    owner: 'user-1',
    parent: '/',
    size: 10,
    contentType: 'x/y',
    hasThumbnail: kind === 'photo',
    thumbnailID: kind === 'photo' ? `t-${id}` : '',
    isVideo: kind === 'video',
    trashed: false,
  },
});

function renderPopups(cached: FileDto[] = []) {
  const store = createAppStore();
  const queryClient = createQueryClient();
  queryClient.setQueryData(fileKeys.list({ parent: '/' }), { pages: [cached], pageParams: [undefined] });
  const router = createMemoryRouter([{ path: '*', element: <PopupHost /> }], { initialEntries: ['/home'] });
  render(
    <AppProviders store={store} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const open = (target: FileDto) => act(() => void store.dispatch(setPopupSelect({ type: 'file', file: target })));
  return { store, router, queryClient, open };
}

describe('preview neighbours', () => {
  it('moves only among items with a thumbnail or a video', () => {
    const list = [file('a', 'photo'), file('b', 'doc'), file('c', 'video'), file('d', 'doc'), file('e', 'photo')];
    expect(previewSiblings(list, 'c')).toEqual({ previous: list[0], next: list[4] });
    expect(previewSiblings(list, 'a')).toEqual({ previous: null, next: list[2] });
    expect(previewSiblings(list, 'b')).toEqual({ previous: null, next: null });
  });
});

describe('file popups', () => {
  it('a document opens the details popup with link type, size and MM/DD/YYYY hh:mma', async () => {
    const doc = { ...file('notes', 'doc'), metadata: { ...file('notes', 'doc').metadata, linkType: 'public' as const, link: 'x' } };
    const { open } = renderPopups([doc]);
    open(doc);
    const details = await screen.findByTestId('file-details');
    expect(within(details).getByText('File details')).toBeTruthy();
    expect(within(details).getByTestId('fact-link-type').textContent).toBe('Public');
    expect(within(details).getByTestId('fact-size').textContent).toBe('10 B');
    expect(within(details).getByTestId('fact-upload-date').textContent).toBe('03/05/2025 09:05am');
    expect(within(details).getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(within(details).getByRole('button', { name: 'Copy name' })).toBeTruthy();
  });

  it('closes with a 200 ms slide after the close button, and browser back closes it too', async () => {
    const photo = file('p1', 'photo');
    const { open, store, router } = renderPopups([photo]);
    open(photo);
    const preview = await screen.findByTestId('file-preview');
    await waitFor(() => expect(router.state.location.state).toMatchObject({ nimbusPopup: expect.any(String) }));
    fireEvent.click(within(preview).getByRole('button', { name: 'Close preview' }));
    expect(preview.className).toContain('opacity-0');
    expect(store.getState().selection.popupModal.file).not.toBeNull();
    await waitFor(() => expect(store.getState().selection.popupModal.file).toBeNull());
    await waitFor(() => expect(router.state.location.state).toBeNull());

    open(photo);
    await screen.findByTestId('file-preview');
    await waitFor(() => expect(router.state.location.state).toMatchObject({ nimbusPopup: expect.any(String) }));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.queryByTestId('file-preview')).toBeNull());
    expect(store.getState().selection.popupModal.file).toBeNull();
    expect(router.state.location.pathname).toBe('/home');
  });

  it('a video whose stream credential cannot be had says "Error getting video"', async () => {
    onRequest('GET', '/file-service/download/access-token-stream-video', { status: 500, data: errorBody('INTERNAL') });
    const video = file('v1', 'video');
    const { open } = renderPopups([video]);
    open(video);
    const preview = await screen.findByTestId('file-preview');
    expect(await within(preview).findByText('Error getting video')).toBeTruthy();
    expect(await screen.findByText('Error getting video', { selector: '.Toastify *' })).toBeTruthy();
  });

  it('streams a video once the credential is set, and removes the credential on close', async () => {
    onRequest('GET', '/file-service/download/access-token-stream-video', { status: 200, data: {} });
    onRequest('DELETE', '/file-service/remove-stream-video-token', { status: 200, data: {} });
    const video = file('v1', 'video');
    const { open } = renderPopups([video]);
    open(video);
    const player = await screen.findByTestId('preview-video');
    expect(player.getAttribute('src')).toBe('/file-service/stream-video/v1');
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('file-preview')).toBeNull());
    await waitFor(() => expect(requestsTo('DELETE', '/file-service/remove-stream-video-token')).toHaveLength(1));
  });

  it('a file that leaves the lists closes its popup; a changed one shows its new state', async () => {
    const photo = file('p1', 'photo');
    const { open, queryClient, store } = renderPopups([photo, file('p2', 'photo')]);
    open(photo);
    await screen.findByTestId('file-preview');
    act(() =>
      queryClient.setQueryData(fileKeys.list({ parent: '/' }), {
        pages: [[{ ...photo, filename: 'renamed.png' }]],
        pageParams: [undefined],
      }),
    );
    await waitFor(() => expect(store.getState().selection.popupModal.file?.filename).toBe('renamed.png'));
    act(() => queryClient.setQueryData(fileKeys.list({ parent: '/' }), { pages: [[file('p2', 'photo')]], pageParams: [undefined] }));
    await waitFor(() => expect(store.getState().selection.popupModal.file).toBeNull());
  });
});
