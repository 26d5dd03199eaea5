import type { FileDto, FolderDto } from '@nimbus/common';
import { multipartBody } from './multipart.js';
import type { TestBrowser } from './test-browser.js';

export async function upload(browser: TestBrowser, filename: string, data: Buffer | string, parent = '/'): Promise<FileDto> {
  const { body, contentType } = await multipartBody([
    { name: 'filename', value: filename },
    { name: 'parent', value: parent },
    { name: 'currentID', value: 'u1' },
    { name: 'size', value: String(Buffer.byteLength(data)) },
    { name: 'file', filename: 'blob', data },
  ]);
  const response = await browser.request('POST', '/file-service/upload', body, { 'content-type': contentType });
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  return response.json() as FileDto;
}

export async function createFolder(browser: TestBrowser, name: string, parent = '/'): Promise<FolderDto> {
  const response = await browser.post('/folder-service/create', { name, parent });
  if (response.statusCode !== 201) throw new Error(`create folder failed: ${response.statusCode} ${response.body}`);
  return response.json() as FolderDto;
}

export async function listFiles(browser: TestBrowser, query: Record<string, string> = {}): Promise<FileDto[]> {
  const response = await browser.get(`/file-service/list?${new URLSearchParams(query)}`);
  if (response.statusCode !== 200) throw new Error(`list failed: ${response.statusCode} ${response.body}`);
  return response.json() as FileDto[];
}

export async function listFolders(browser: TestBrowser, query: Record<string, string> = {}): Promise<FolderDto[]> {
  const response = await browser.get(`/folder-service/list?${new URLSearchParams(query)}`);
  if (response.statusCode !== 200) throw new Error(`folder list failed: ${response.statusCode} ${response.body}`);
  return response.json() as FolderDto[];
}
