import type { FileDto, LinkedFileDto } from '@nimbus/common';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { setPopupSelect, setShareSelected } from '../../state/selection.slice';
import { createAppStore } from '../../state/store';
import { elapse, useFakeClock } from '../../test/clock';
import { deferredReply, errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { PopupHost } from '../popups/PopupHost';

const privateFile: FileDto = {
  _id: 'f1',
  filename: 'contract.pdf',
  length: 2048,
  uploadDate: '2025-03-05T14:07:00.000Z',
  metadata: {
    owner: 'user-1',
    parent: '/',
    size: 2048,
    contentType: 'application/pdf',
    hasThumbnail: false,
    thumbnailID: '',
    isVideo: false,
    trashed: false,
  },
};
const shared = (linkType: 'public' | 'one', link = 'tok123'): FileDto => ({
  ...privateFile,
  metadata: { ...privateFile.metadata, linkType, link },
});
/** The server's answer to make-public and make-one: the file's fields, plus `file` and `token`. */
const linked = (linkType: 'public' | 'one', link: string): LinkedFileDto => {
  const file = shared(linkType, link);
  return { ...file, file, token: link };
};

const TEXTS = {
  private: 'Only you can view and download this file',
  public: 'Anyone with the link can view and download this file',
  temporary:
    'This file will be available for download one time, after it is downloaded once the file will then automatically be marked as private.',
};

function renderShare(file: FileDto | null) {
  const store = createAppStore();
  const router = createMemoryRouter([{ path: '*', element: <PopupHost /> }], { initialEntries: ['/home'] });
  render(
    <AppProviders store={store} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  if (file) {
    act(() => {
      store.dispatch(setShareSelected(file));
    });
  }
  return { store, router };
}

const select = () => screen.getByLabelText('Permission') as HTMLSelectElement;
const linkBox = () => screen.getByRole('textbox', { name: 'Link' }) as HTMLInputElement;
const help = () => screen.getByTestId('permission-help').textContent;
const toastText = (text: string) => screen.findByText(text, { selector: '.Toastify *' });

describe('share popup', () => {
  it('for a private file: "Share file", "Document is private", Private selected, and Copy link does nothing', async () => {
    useFakeClock();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderShare(privateFile);
    expect(await screen.findByRole('heading', { name: 'Share file' })).toBeTruthy();
    expect(linkBox().value).toBe('Document is private');
    expect(select().value).toBe('private');
    expect(Array.from(select().options).map((o) => o.text)).toEqual(['Private', 'Public', 'Temporary']);
    expect(help()).toBe(TEXTS.private);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await elapse(20);
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.queryByText('Link Copied')).toBeNull();
  });

  it('makes the file public: the select is disabled meanwhile, then the link shows and can be copied', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const pending = deferredReply({ status: 200, data: linked('public', 'tok123') });
    onRequest('PATCH', '/file-service/make-public/f1', pending.reply);
    const { store } = renderShare(privateFile);
    fireEvent.change(await screen.findByLabelText('Permission'), { target: { value: 'public' } });
    expect(select().disabled).toBe(true);
    await toastText('Making Public...');
    pending.release();
    await toastText('Public Link Generated');
    await waitFor(() => expect(select().disabled).toBe(false));
    expect(select().value).toBe('public');
    expect(linkBox().value).toBe(`${window.location.origin}/public-download/f1/tok123`);
    expect(help()).toBe(TEXTS.public);
    expect(store.getState().selection.shareModal.file?.metadata.linkType).toBe('public');
    // The popup keeps the file alone, not the answer's copy of it beside its token.
    expect(store.getState().selection.shareModal.file).toEqual(shared('public'));

    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await toastText('Link Copied');
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/public-download/f1/tok123`);
  });

  it('shows the temporary helper text after making a one-time link', async () => {
    onRequest('PATCH', '/file-service/make-one/f1', { status: 200, data: linked('one', 'once1') });
    renderShare(privateFile);
    fireEvent.change(await screen.findByLabelText('Permission'), { target: { value: 'one' } });
    await toastText('Public Link Generated');
    await waitFor(() => expect(help()).toBe(TEXTS.temporary));
    expect(linkBox().value).toBe(`${window.location.origin}/public-download/f1/once1`);
  });

  it('says "Error Making Public" and keeps the old permission when the change fails', async () => {
    onRequest('PATCH', '/file-service/make-public/f1', { status: 500, data: errorBody('INTERNAL') });
    renderShare(privateFile);
    fireEvent.change(await screen.findByLabelText('Permission'), { target: { value: 'public' } });
    await toastText('Error Making Public');
    await waitFor(() => expect(select().disabled).toBe(false));
    expect(select().value).toBe('private');
    expect(linkBox().value).toBe('Document is private');
  });

  it('removes the link with "Removing Link..." then "Link Removed", or says "Error Removing Link"', async () => {
    onRequest('PATCH', '/file-service/remove-link/f1', { status: 500, data: errorBody('INTERNAL') }, { status: 200, data: privateFile });
    renderShare(shared('public'));
    fireEvent.change(await screen.findByLabelText('Permission'), { target: { value: 'private' } });
    await toastText('Removing Link...');
    await toastText('Error Removing Link');
    await waitFor(() => expect(select().disabled).toBe(false));
    fireEvent.change(select(), { target: { value: 'private' } });
    await toastText('Link Removed');
    await waitFor(() => expect(linkBox().value).toBe('Document is private'));
    expect(help()).toBe(TEXTS.private);
    expect(requestsTo('PATCH', '/file-service/remove-link/f1')).toHaveLength(2);
  });

  it('opening it closes any other popup', async () => {
    const { store } = renderShare(null);
    act(() => {
      // A file without a preview opens its details.
      store.dispatch(
        setPopupSelect({
          type: 'file',
          file: { ...privateFile, metadata: { ...privateFile.metadata, contentType: 'application/zip' }, filename: 'contract.zip' },
        }),
      );
    });
    expect(await screen.findByTestId('file-details')).toBeTruthy();
    act(() => {
      store.dispatch(setShareSelected(privateFile));
    });
    await screen.findByRole('heading', { name: 'Share file' });
    await waitFor(() => expect(store.getState().selection.popupModal.file).toBeNull());
    expect(screen.queryByTestId('file-details')).toBeNull();
  });
});
