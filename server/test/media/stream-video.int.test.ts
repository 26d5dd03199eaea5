import { LIMITS } from '@nimbus/common';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_TOKEN_MS } from '../../src/services/downloads/stream-token.service.js';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const STREAM_COOKIE = 'stream-video-token';

describe('video streaming', () => {
  let t: TestApp;
  let now = Date.parse('2026-03-01T10:00:00Z');
  const clock = { now: () => now };
  let video: Buffer;

  beforeAll(async () => {
    t = await createTestApp({}, { clock, ffmpegPath: null });
    // An MP4 header and 3 MB of noise: a video by its content type, and large enough for
    // ranges that cross the store's encryption chunks.
    video = Buffer.concat([Buffer.from('000000206674797069736f6d0000020069736f6d69736f32617663316d703431', 'hex'), randomBytes(3_000_000)]);
  });
  afterAll(() => t.close());

  async function signedIn(): Promise<{ browser: TestBrowser; id: string }> {
    const browser = new TestBrowser(t.app);
    await browser.signUp();
    const file = await upload(browser, 'movie.mp4', video);
    expect(file.metadata.isVideo).toBe(true);
    return { browser, id: file._id };
  }

  async function issueStreamCookie(browser: TestBrowser): Promise<void> {
    const response = await browser.get('/file-service/download/access-token-stream-video');
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === STREAM_COOKIE)!;
    expect(cookie).toMatchObject({
      path: '/file-service/stream-video',
      httpOnly: true,
      sameSite: 'Strict',
      maxAge: STREAM_TOKEN_MS / 1000,
    });
  }

  it('serves ranges anywhere in the video, equal to the original bytes', async () => {
    const { browser, id } = await signedIn();
    const url = `/file-service/stream-video/${id}`;
    const whole = await browser.get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-disposition']).toMatch(/^inline/);
    expect(whole.rawPayload.equals(video)).toBe(true);

    const size = video.length;
    const ranges: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=65530-65545', 65530, 65545],
      ['bytes=1048570-2097160', 1048570, 2097160],
      ['bytes=2999990-', 2999990, size - 1],
      ['bytes=-500', size - 500, size - 1],
    ];
    for (const [header, start, end] of ranges) {
      const part = await browser.request('GET', url, undefined, { range: header });
      expect(part.statusCode, header).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(part.rawPayload.equals(video.subarray(start, end + 1)), header).toBe(true);
    }
    expect((await browser.request('GET', url, undefined, { range: `bytes=${size}-` })).statusCode).toBe(416);
  });

  it('lets the stream credential alone play the video after the access token expired, until its own expiry', async () => {
    const { browser, id } = await signedIn();
    await issueStreamCookie(browser);
    now += LIMITS.accessTokenMs + 60_000;
    expect((await browser.get('/file-service/list')).statusCode).toBe(401);
    const part = await browser.request('GET', `/file-service/stream-video/${id}`, undefined, { range: 'bytes=0-9' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(video.subarray(0, 10))).toBe(true);

    now += STREAM_TOKEN_MS;
    expect((await browser.get(`/file-service/stream-video/${id}`)).statusCode).toBe(401);
  });

  it('stops working once removed or once the session ends', async () => {
    const { browser, id } = await signedIn();
    await issueStreamCookie(browser);
    const removed = await browser.delete('/file-service/remove-stream-video-token');
    expect(removed.statusCode).toBe(200);
    expect(browser.cookies.has(STREAM_COOKIE)).toBe(false);

    await issueStreamCookie(browser);
    const token = browser.cookies.get(STREAM_COOKIE)!.value;
    expect((await browser.post('/user-service/logout')).statusCode).toBe(200);
    const replay = await t.app.inject({ url: `/file-service/stream-video/${id}`, cookies: { [STREAM_COOKIE]: token } });
    expect(replay.statusCode).toBe(401);
  });

  it('is not an access token, and needs a signed-in caller to be issued', async () => {
    const { browser } = await signedIn();
    await issueStreamCookie(browser);
    const token = browser.cookies.get(STREAM_COOKIE)!.value;
    expect((await t.app.inject({ url: '/file-service/list', cookies: { 'access-token': token } })).statusCode).toBe(401);
    expect((await new TestBrowser(t.app).get('/file-service/download/access-token-stream-video')).statusCode).toBe(401);
    expect((await new TestBrowser(t.app).get(`/file-service/stream-video/whatever`)).statusCode).toBe(401);
  });

  it("answers 404 for another user's video or a file that is not a video, 400 for a bad id", async () => {
    const { id } = await signedIn();
    const { browser: bob } = await signedIn();
    await issueStreamCookie(bob);
    expect((await bob.get(`/file-service/stream-video/${id}`)).statusCode).toBe(404);
    const text = await upload(bob, 'notes.txt', 'text');
    expect((await bob.get(`/file-service/stream-video/${text._id}`)).statusCode).toBe(404);
    expect((await bob.get(`/file-service/stream-video/${'x'.repeat(80)}`)).statusCode).toBe(400);
  });
});
