import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** A file as the API lists it (only the fields the specs read). */
export interface ListedFile {
  _id: string;
  filename: string;
  length: number;
  uploadDate: string;
  metadata: { parent: string; hasThumbnail: boolean; thumbnailID: string; isVideo: boolean; linkType?: 'public' | 'one'; link?: string };
}

const browserId = (page: Page) => page.evaluate(() => localStorage.getItem('browser-id') ?? '');

/** Uploads through the API with the page's session, as the app would. */
export async function apiUpload(page: Page, name: string, buffer: Buffer, mimeType: string, parent = '/'): Promise<ListedFile> {
  const response = await page.request.post('/file-service/upload', {
    headers: { uuid: await browserId(page) },
    multipart: { filename: name, parent, currentID: `seed-${name}`, size: String(buffer.length), file: { name, mimeType, buffer } },
  });
  if (response.status() !== 201) throw new Error(`upload of ${name} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as ListedFile;
}

export async function apiList(page: Page, params: Record<string, string> = {}): Promise<ListedFile[]> {
  const query = new URLSearchParams({ limit: '100', ...params });
  const response = await page.request.get(`/file-service/list?${query}`, { headers: { uuid: await browserId(page) } });
  if (!response.ok()) throw new Error(`list answered ${response.status()}`);
  return (await response.json()) as ListedFile[];
}

export async function apiFolders(page: Page, parent = '/'): Promise<{ _id: string; name: string }[]> {
  const response = await page.request.get(`/folder-service/list?parent=${encodeURIComponent(parent)}`, {
    headers: { uuid: await browserId(page) },
  });
  return (await response.json()) as { _id: string; name: string }[];
}

/** Waits until the background job has made a thumbnail for each of the files. */
export async function waitForThumbnails(page: Page, ids: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = await apiList(page, { mediaMode: 'true' });
    if (ids.every((id) => files.find((f) => f._id === id)?.metadata.hasThumbnail)) return;
    if (Date.now() > deadline) throw new Error('thumbnails were not made in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface MediaFixtures {
  photos: { name: string; buffer: Buffer; mimeType: string }[];
  video: { name: string; buffer: Buffer; mimeType: string };
}

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('/usr/bin/ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], (error) => (error ? reject(error) : resolve())),
  );
}

/** Three small photos and a 6-second VP8 WebM with a key frame every second, made with ffmpeg. */
export async function makeMediaFixtures(): Promise<MediaFixtures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nimbus-media-'));
  try {
    const colors = ['red', 'green', 'blue'];
    const video = path.join(dir, 'clip.webm');
    await Promise.all([
      ...colors.map((color) =>
        ffmpeg(['-f', 'lavfi', '-i', `color=c=${color}:s=640x480`, '-frames:v', '1', path.join(dir, `${color}.jpg`)]),
      ),
      ffmpeg([
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=25',
        '-t',
        '6',
        '-c:v',
        'libvpx',
        '-b:v',
        '300k',
        '-g',
        '25',
        '-pix_fmt',
        'yuv420p',
        video,
      ]),
    ]);
    return {
      photos: await Promise.all(
        colors.map(async (color) => ({
          name: `${color}.jpg`,
          buffer: await readFile(path.join(dir, `${color}.jpg`)),
          mimeType: 'image/jpeg',
        })),
      ),
      video: { name: 'clip.webm', buffer: await readFile(video), mimeType: 'video/webm' },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Creates an account from the landing page and waits for the main layout. */
export async function signUp(page: Page, email: string, password = 'correct-horse-1'): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Verify password').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL('**/home');
  await page.getByRole('navigation', { name: 'Main menu' }).first().waitFor();
}

/** Opens a file of the home list (its popup) from the keyboard, as Enter on a focused card does. */
export async function openFromHome(page: Page, name: string): Promise<void> {
  await page.goto('/home');
  const card = page.getByRole('option', { name }).last();
  await card.focus();
  await page.keyboard.press('Enter');
}
