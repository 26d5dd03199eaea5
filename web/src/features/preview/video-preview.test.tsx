import type { FileDto } from '@nimbus/common';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/AppProviders';
import { onRequest, requestsTo } from '../../test/http-mock';
import { PREPARING_POLL_MS, PreviewVideo, VIDEO_MESSAGES } from './PreviewMedia';

const video: FileDto = {
  _id: 'v1',
  filename: 'iphone.mov',
  length: 10,
  uploadDate: '2026-11-05T09:05:00',
  metadata: {
    owner: 'user-1',
    parent: '/',
    size: 10,
    contentType: 'video/quicktime',
    hasThumbnail: false,
    thumbnailID: '',
    isVideo: true,
    trashed: false,
  },
};

const INFO = '/file-service/video-info/v1';
const show = (src?: string) =>
  render(
    <AppProviders>
      <PreviewVideo file={video} credential="ready" src={src} />
    </AppProviders>,
  );

describe('the video player and playable copies', () => {
  it('says the video is being prepared, asks again, and plays the copy once it is ready', async () => {
    onRequest('GET', INFO, { status: 200, data: { state: 'preparing' } }, { status: 200, data: { state: 'ready' } });
    show();
    expect(await screen.findByText(VIDEO_MESSAGES.preparing)).toBeTruthy();
    expect(screen.queryByTestId('preview-video')).toBeNull();
    const player = await screen.findByTestId('preview-video', {}, { timeout: PREPARING_POLL_MS + 3000 });
    expect(player.getAttribute('src')).toBe('/file-service/stream-video/v1');
    expect(player.dataset.playback).toBe('ready');
    expect(requestsTo('GET', INFO)).toHaveLength(2);
  });

  it('says a video that cannot be converted cannot be played, and to download it', async () => {
    onRequest('GET', INFO, { status: 200, data: { state: 'failed' } });
    show();
    expect((await screen.findByRole('alert')).textContent).toBe(VIDEO_MESSAGES.cannotPlay);
    expect(screen.queryByTestId('preview-video')).toBeNull();
  });

  it('plays a video that plays as stored; a format the browser refuses says it cannot be played', async () => {
    onRequest('GET', INFO, { status: 200, data: { state: 'off' } });
    show();
    const player = await screen.findByTestId('preview-video');
    expect(player.dataset.playback).toBe('off');
    Object.defineProperty(player, 'error', { value: { code: 4 } });
    fireEvent.error(player);
    expect((await screen.findByRole('alert')).textContent).toBe(VIDEO_MESSAGES.cannotPlay);
  });

  it('plays the original when the server cannot tell', async () => {
    onRequest('GET', INFO, { status: 500, data: {} });
    show();
    expect((await screen.findByTestId('preview-video')).dataset.playback).toBe('original');
    await waitFor(() => expect(requestsTo('GET', INFO)).toHaveLength(1));
  });

  it('plays an earlier content as stored without asking', async () => {
    show('/file-service/versions/v1/x/download');
    expect((await screen.findByTestId('preview-video')).getAttribute('src')).toBe('/file-service/versions/v1/x/download');
    expect(requestsTo('GET', INFO)).toHaveLength(0);
  });
});
