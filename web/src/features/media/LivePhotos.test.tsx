import type { FileDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const photo = (id: string, extra: Partial<FileDto['metadata']> = {}): FileDto => ({
  _id: id,
  filename: `${id}.jpg`,
  length: 100,
  uploadDate: new Date(Date.UTC(2025, 0, 1)).toISOString(),
  metadata: {
    owner: 'user-1',
    parent: '/',
    size: 100,
    contentType: 'image/jpeg',
    hasThumbnail: true,
    thumbnailID: `t-${id}`,
    isVideo: false,
    trashed: false,
    ...extra,
  },
});

const gallery = [
  photo('live', { livePhoto: { videoId: 'mov-1' } }),
  photo('motion', { motion: { url: '/file-service/motion/motion' } }),
  photo('still'),
];

beforeEach(() => {
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  onRequest('GET', '/file-service/list', { status: 200, data: gallery });
  onRequest('GET', '/file-service/download/access-token-stream-video', { status: 200, data: { message: 'Stream token issued' } });
  onRequest('DELETE', '/file-service/remove-stream-video-token', { status: 200, data: { message: 'Stream token removed' } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Live Photos in the media gallery', () => {
  it('marks Live Photos and motion photos LIVE, and plays the motion muted while hovered', async () => {
    renderApp('/media', { user: testUser });
    const live = await screen.findByRole('button', { name: 'live.jpg' });
    const motion = screen.getByRole('button', { name: 'motion.jpg' });
    const still = screen.getByRole('button', { name: 'still.jpg' });
    expect(screen.getAllByTestId('live-badge')).toHaveLength(2);
    expect(within(still).queryByTestId('live-badge')).toBeNull();

    fireEvent.pointerEnter(live, { pointerType: 'mouse' });
    const video = await within(live).findByTestId<HTMLVideoElement>('live-motion');
    expect(video.getAttribute('src')).toBe('/file-service/stream-video/mov-1');
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    // The still stays beneath: leaving shows it again.
    expect(live.querySelector('img')).toBeTruthy();
    fireEvent.pointerLeave(live, { pointerType: 'mouse' });
    expect(within(live).queryByTestId('live-motion')).toBeNull();

    fireEvent.pointerEnter(motion, { pointerType: 'mouse' });
    expect((await within(motion).findByTestId('live-motion')).getAttribute('src')).toBe('/file-service/motion/motion');
    fireEvent.pointerLeave(motion, { pointerType: 'mouse' });
    fireEvent.pointerEnter(still, { pointerType: 'mouse' });
    expect(within(still).queryByTestId('live-motion')).toBeNull();
    // One credential serves every tile.
    expect(requestsTo('GET', '/file-service/download/access-token-stream-video').length).toBeLessThanOrEqual(1);
  });

  it('plays the motion while a finger presses the tile', async () => {
    renderApp('/media', { user: testUser });
    const live = await screen.findByRole('button', { name: 'live.jpg' });
    fireEvent.touchStart(live, { touches: [{ clientX: 5, clientY: 5 }] });
    expect(await within(live).findByTestId('live-motion')).toBeTruthy();
    fireEvent.touchEnd(live);
    expect(within(live).queryByTestId('live-motion')).toBeNull();
  });

  it("offers the Live Photo's video in its menu, and plays the motion from the preview", async () => {
    renderApp('/media', { user: testUser });
    const live = await screen.findByRole('button', { name: 'live.jpg' });
    fireEvent.contextMenu(live, { clientX: 10, clientY: 10 });
    const menu = await screen.findByRole('menu');
    const labels = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(labels).toContain('Download');
    expect(labels).toContain('Download video');
    fireEvent.keyDown(menu, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    fireEvent.contextMenu(screen.getByRole('button', { name: 'still.jpg' }), { clientX: 10, clientY: 10 });
    const plain = await screen.findByRole('menu');
    expect(within(plain).queryByRole('menuitem', { name: /Download video/ })).toBeNull();
    fireEvent.keyDown(plain, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    fireEvent.click(live);
    fireEvent.click(live);
    const preview = await screen.findByTestId('file-preview');
    expect(within(preview).getByTestId('preview-image').getAttribute('src')).toBe('/file-service/full-thumbnail/live');
    fireEvent.click(await within(preview).findByRole('button', { name: 'LIVE' }));
    const motion = await within(preview).findByTestId('preview-live-motion');
    expect(motion.getAttribute('src')).toBe('/file-service/stream-video/mov-1');
    fireEvent.ended(motion);
    expect(await within(preview).findByTestId('preview-image')).toBeTruthy();
  });
});
