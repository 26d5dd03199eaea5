import type { Page } from 'playwright-core';

export interface SeededFolder {
  _id: string;
  name: string;
  parent: string;
}

export interface SeededFile {
  _id: string;
  filename: string;
}

const browserId = (page: Page) => page.evaluate(() => localStorage.getItem('browser-id') ?? '');

/** Creates a folder through the API with the page's session. */
export async function apiCreateFolder(page: Page, name: string, parent = '/'): Promise<SeededFolder> {
  const response = await page.request.post('/folder-service/create', { headers: { uuid: await browserId(page) }, data: { name, parent } });
  if (response.status() !== 201) throw new Error(`create folder ${name} answered ${response.status()}`);
  return (await response.json()) as SeededFolder;
}

/** Uploads small text files in one request (the folder upload call, with no sub-paths) and returns them. */
export async function apiUploadFiles(page: Page, names: string[], parent = '/'): Promise<SeededFile[]> {
  const form = new FormData();
  form.append('parent', parent);
  form.append('total-files', String(names.length));
  names.forEach((name, index) =>
    form.append('file-data', JSON.stringify({ name, size: name.length, type: 'text/plain', path: name, index })),
  );
  names.forEach((name) => form.append('file', new Blob([name], { type: 'text/plain' }), name));
  const response = await page.request.post('/folder-service/upload', { headers: { uuid: await browserId(page) }, multipart: form });
  if (response.status() !== 201) throw new Error(`upload answered ${response.status()}: ${await response.text()}`);
  return ((await response.json()) as { files: SeededFile[] }).files;
}

/** The names of the items of a listbox or grid of the browser, in screen order. */
export function itemNames(page: Page, list: 'Folders' | 'Files'): Promise<string[]> {
  return page
    .locator(`[aria-label="${list}"] [role="option"], [aria-label="${list}"] [role="row"][aria-selected]`)
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''));
}
