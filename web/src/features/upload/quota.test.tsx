import type { FolderDto } from '@nimbus/common';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/api-error';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { createAppStore } from '../../state/store';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { isQuotaExceeded } from './storage-room';
import { UploadPanel } from './UploadPanel';
import { useUploadPickers } from './useUploadPickers';

function Pickers() {
  return useUploadPickers().inputs;
}

function renderUploads(path = '/home') {
  const router = createMemoryRouter([{ path: '*', element: [<Pickers key="p" />, <UploadPanel key="u" />] }], {
    initialEntries: [path],
  });
  render(
    <AppProviders store={createAppStore()} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

const MB = 1024 ** 2;
const sized = (name: string, bytes: number, relativePath = '') => {
  const file = new File(['x'], name, { type: 'text/plain' });
  Object.defineProperty(file, 'size', { value: bytes });
  if (relativePath) Object.defineProperty(file, 'webkitRelativePath', { value: relativePath });
  return file;
};
const pick = (testId: string, files: File[]) => fireEvent.change(screen.getByTestId(testId), { target: { files } });
const storage = (usedBytes: number, quotaBytes: number | null) => ({
  status: 200,
  data: { usedBytes, quotaBytes, bytes: { files: usedBytes, trash: 0, versions: 0 } },
});

describe('uploads and the quota', () => {
  it('sends no byte when the chosen files need more than is left, and says how much', async () => {
    onRequest('GET', '/user-service/storage', storage(90 * MB, 100 * MB));
    onRequest('POST', '/file-service/upload', { status: 201, data: {} });
    renderUploads();
    pick('upload-files-input', [sized('a.bin', 6 * MB), sized('b.bin', 6 * MB)]);
    expect(await screen.findByText('Not enough storage: this upload needs 12 MB but only 10 MB is left')).toBeTruthy();
    expect(requestsTo('POST', '/file-service/upload')).toHaveLength(0);
    expect(screen.queryAllByTestId('upload-row')).toHaveLength(0);
  });

  it('checks a folder upload as a whole', async () => {
    onRequest('GET', '/user-service/storage', storage(95 * MB, 100 * MB));
    onRequest('POST', '/folder-service/upload', { status: 201, data: { files: [], folders: [] } });
    renderUploads();
    pick('upload-folder-input', [sized('a.txt', 3 * MB, 'Trip/a.txt'), sized('b.txt', 3 * MB, 'Trip/b.txt')]);
    expect(await screen.findByText('Not enough storage: this upload needs 6 MB but only 5 MB is left')).toBeTruthy();
    expect(requestsTo('POST', '/folder-service/upload')).toHaveLength(0);
  });

  it('uploads what fits, and anything when there is no quota', async () => {
    onRequest('GET', '/user-service/storage', storage(90 * MB, null));
    onRequest('POST', '/file-service/upload', { status: 201, data: {} });
    renderUploads();
    pick('upload-files-input', [sized('big.bin', 5 * MB)]);
    await screen.findByRole('heading', { name: 'Uploaded 1 file(s)' });
    expect(requestsTo('POST', '/file-service/upload')).toHaveLength(1);
  });

  it('reads the use afresh before refusing: room made a moment ago counts', async () => {
    onRequest('GET', '/user-service/storage', storage(99 * MB, 100 * MB), storage(50 * MB, 100 * MB));
    onRequest('POST', '/file-service/upload', { status: 201, data: {} });
    renderUploads();
    pick('upload-files-input', [sized('fits-now.bin', 5 * MB)]);
    await screen.findByRole('heading', { name: 'Uploaded 1 file(s)' });
    expect(requestsTo('GET', '/user-service/storage')).toHaveLength(2);
    expect(requestsTo('POST', '/file-service/upload')).toHaveLength(1);
  });

  it('explains a 413 QUOTA_EXCEEDED from the server in the same words', async () => {
    onRequest('GET', '/user-service/storage', storage(90 * MB, 100 * MB), storage(98 * MB, 100 * MB));
    onRequest('POST', '/file-service/upload', { status: 413, data: errorBody('QUOTA_EXCEEDED', 'Quota exceeded') });
    renderUploads();
    pick('upload-files-input', [sized('late.bin', 4 * MB)]);
    expect(await screen.findByText('Not enough storage: this upload needs 4 MB but only 2 MB is left')).toBeTruthy();
    expect(screen.queryByText('QUOTA_EXCEEDED')).toBeNull();
  });

  it('a file over the server size limit (413 PAYLOAD_TOO_LARGE) fails as any upload does: canceled, no quota message', async () => {
    onRequest('GET', '/user-service/storage', storage(10 * MB, 100 * MB));
    onRequest('POST', '/file-service/upload', { status: 413, data: errorBody('PAYLOAD_TOO_LARGE', 'File is larger than 1000 bytes') });
    renderUploads();
    pick('upload-files-input', [sized('huge.bin', 4 * MB)]);
    await screen.findByTestId('upload-row');
    await waitFor(() => expect(requestsTo('POST', '/file-service/upload')).toHaveLength(1));
    await screen.findByRole('heading', { name: 'Uploaded 0 file(s)' });
    // Let a (wrong) quota message have its chance to appear.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/Not enough storage/)).toBeNull();
    // The quota message reads the use afresh; a size refusal does not ask for it again.
    expect(requestsTo('GET', '/user-service/storage')).toHaveLength(1);
  });

  it('into a folder shared with the account, a 413 QUOTA_EXCEEDED speaks of the owner’s drive, not of the account’s figures', async () => {
    const shared: FolderDto = {
      _id: 'shared-root',
      name: 'Team plans',
      parent: 'owners-folder',
      owner: 'acc-owner',
      createdAt: '',
      updatedAt: '',
      trashed: false,
      shared: { role: 'editor', owner: { id: 'acc-owner', email: 'owner@example.com' }, rootId: 'shared-root', rootType: 'folder' },
    };
    onRequest('GET', '/folder-service/info/shared-root', { status: 200, data: shared });
    onRequest('GET', '/user-service/storage', storage(10 * MB, 100 * MB));
    onRequest('POST', '/file-service/upload', { status: 413, data: errorBody('QUOTA_EXCEEDED', 'Quota exceeded') });
    renderUploads('/folder/shared-root');
    pick('upload-files-input', [sized('late.bin', 4 * MB)]);
    expect(await screen.findByText("Not enough storage in the owner's drive for this upload")).toBeTruthy();
    expect(screen.queryByText(/is left/)).toBeNull();
  });
});

describe('isQuotaExceeded', () => {
  const tusError = (status: number, body: string) =>
    Object.assign(new Error('tus'), { originalResponse: { getStatus: () => status, getBody: () => body } });

  it('goes by the code QUOTA_EXCEEDED, not by the status 413', () => {
    expect(isQuotaExceeded(new ApiError(413, 'QUOTA_EXCEEDED', 'Quota exceeded'))).toBe(true);
    expect(isQuotaExceeded(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Too large'))).toBe(false);
    expect(isQuotaExceeded(tusError(413, JSON.stringify(errorBody('QUOTA_EXCEEDED'))))).toBe(true);
    expect(isQuotaExceeded(tusError(413, JSON.stringify(errorBody('PAYLOAD_TOO_LARGE'))))).toBe(false);
    expect(isQuotaExceeded(tusError(413, 'not json'))).toBe(false);
    expect(isQuotaExceeded(new Error('network'))).toBe(false);
  });
});
