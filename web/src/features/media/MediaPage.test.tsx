import type { FileDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '../../api/client';
import { onRequest } from '../../test/http-mock';
import { elapse, useFakeClock } from '../../test/clock';
import { renderApp, testUser } from '../../test/render-app';

const media = (i: number, isVideo = false): FileDto => ({
  _id: `m${i}`,
  filename: `photo-${i}.${isVideo ? 'mp4' : 'jpg'}`,
  length: 100,
  uploadDate: new Date(Date.UTC(2025, 0, 1) - i * 60_000).toISOString(),
  metadata: {
    owner: 'user-1',
    parent: '/',
    size: 100,
    contentType: isVideo ? 'video/mp4' : 'image/jpeg',
    hasThumbnail: true,
    thumbnailID: `t${i}`,
    isVideo,
    trashed: false,
  },
});

let observed: (() => void)[] = [];
beforeEach(() => {
  observed = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe() {
        observed.push(() =>
          this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver),
        );
      }
      disconnect() {}
    },
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

type GetSpy = { mock: { calls: unknown[][] } };
const listParams = (spy: GetSpy): Record<string, unknown>[] =>
  spy.mock.calls
    .filter(([url]) => url === '/file-service/list')
    .map(([, config]) => (config as { params: Record<string, unknown> }).params);

describe('media page', () => {
  it('heads the grid by filter and asks for 100 photos, videos or both across the drive', async () => {
    const get = vi.spyOn(http, 'get');
    onRequest('GET', '/file-service/list', { status: 200, data: [media(1), media(2, true)] });
    renderApp('/media', { user: testUser });
    await screen.findByRole('heading', { name: 'Photos and Videos' });
    await screen.findByRole('button', { name: 'photo-1.jpg' });
    expect(screen.getAllByTestId('play-badge')).toHaveLength(1);
    expect(within(screen.getByRole('button', { name: 'photo-2.mp4' })).getByTestId('play-badge')).toBeTruthy();

    const filter = screen.getByRole('group', { name: 'Media filter' });
    fireEvent.click(within(filter).getByRole('button', { name: 'Photos' }));
    await screen.findByRole('heading', { name: 'Photos' });
    fireEvent.click(within(filter).getByRole('button', { name: 'Videos' }));
    await screen.findByRole('heading', { name: 'Videos' });
    fireEvent.click(screen.getByRole('button', { name: 'Sort ascending' }));
    await waitFor(() => expect(listParams(get).at(-1)).toMatchObject({ sortBy: 'date_asc', mediaFilter: 'videos' }));
    expect(listParams(get)[0]).toEqual({ mediaMode: true, mediaFilter: 'all', sortBy: 'date_desc', limit: 100 });
    expect(listParams(get).map((p) => p.mediaFilter)).toEqual(['all', 'photos', 'videos', 'videos']);
  });

  it('pages 100 at a time from the last file, and stops after a shorter page', async () => {
    useFakeClock();
    const get = vi.spyOn(http, 'get');
    const first = Array.from({ length: 100 }, (_, i) => media(i));
    onRequest('GET', '/file-service/list', { status: 200, data: first }, { status: 200, data: [media(100), media(101)] });
    renderApp('/search-media/beach', { user: testUser });
    await screen.findByRole('button', { name: 'photo-99.jpg' });
    observed.at(-1)!();
    await screen.findByRole('button', { name: 'photo-101.jpg' });
    const [, second] = listParams(get);
    expect(listParams(get)[0]).toMatchObject({ search: 'beach' });
    expect(second).toMatchObject({ startAt: true, startAtDate: first[99]!.uploadDate, startAtName: 'photo-99.jpg', startAtId: 'm99' });
    observed.at(-1)!();
    await elapse(50);
    expect(listParams(get)).toHaveLength(2);
  });

  it('shows an error icon when a thumbnail fails to load, after one retry with a fresh session', async () => {
    onRequest('GET', '/file-service/list', { status: 200, data: [media(1)] });
    onRequest('POST', '/user-service/get-token', { status: 200, data: {} });
    renderApp('/media', { user: testUser });
    const tile = await screen.findByRole('button', { name: 'photo-1.jpg' });
    fireEvent.error(tile.querySelector('img')!);
    await waitFor(() => expect(tile.querySelector('img')?.getAttribute('src')).toBe('/file-service/thumbnail/t1?retry=1'));
    fireEvent.error(tile.querySelector('img')!);
    expect(await within(tile).findByTestId('thumbnail-error')).toBeTruthy();
  });

  it('opens the preview on a second click of a selected tile', async () => {
    onRequest('GET', '/file-service/list', { status: 200, data: [media(1), media(2)] });
    const { store } = renderApp('/media', { user: testUser });
    const tile = await screen.findByRole('button', { name: 'photo-2.jpg' });
    fireEvent.click(tile);
    expect(store.getState().selection.mainSection.id).toBe('m2');
    expect(store.getState().selection.popupModal.file).toBeNull();
    fireEvent.click(tile);
    const preview = await screen.findByTestId('file-preview');
    expect(within(preview).getByRole('heading', { name: 'photo-2.jpg' })).toBeTruthy();
    expect(within(preview).getByRole('button', { name: 'Previous file' })).toBeTruthy();
    expect(within(preview).queryByRole('button', { name: 'Next file' })).toBeNull();
    fireEvent.click(within(preview).getByRole('button', { name: 'Previous file' }));
    await within(preview).findByRole('heading', { name: 'photo-1.jpg' });
    expect(within(preview).getByTestId('preview-image').getAttribute('src')).toBe('/file-service/full-thumbnail/m1');
    fireEvent.error(within(preview).getByTestId('preview-image'));
    expect(await within(preview).findByText('Error loading image')).toBeTruthy();
  });

  it('offers the media menu without rename or move', async () => {
    onRequest('GET', '/file-service/list', { status: 200, data: [media(1)] });
    renderApp('/media', { user: testUser });
    fireEvent.contextMenu(await screen.findByRole('button', { name: 'photo-1.jpg' }), { clientX: 10, clientY: 10 });
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Multi-select', 'Share', 'Download', 'Upload new version', 'Trash']);
  });
});
