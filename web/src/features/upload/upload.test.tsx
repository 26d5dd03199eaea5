import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileKeys, folderKeys } from '../../api/query-keys';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { createAppStore } from '../../state/store';
import { addUpload, cancelUpload, completeUpload, setUploadProgress } from '../../state/upload.slice';
import { deferredReply, onRequest, requests } from '../../test/http-mock';
import { createProgressThrottle } from './progress-throttle';
import { uploadTitle, UploadPanel } from './UploadPanel';
import { useUploadPickers } from './useUploadPickers';

function Pickers() {
  const { inputs } = useUploadPickers();
  return inputs;
}

function renderUploads(path = '/home') {
  const store = createAppStore();
  const queryClient = createQueryClient();
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <Pickers />
            <UploadPanel />
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders store={store} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { store, invalidated };
}

const file = (name: string, relativePath = '') => {
  const f = new File(['hello'], name, { type: 'text/plain' });
  if (relativePath) Object.defineProperty(f, 'webkitRelativePath', { value: relativePath });
  return f;
};
const pick = (testId: string, files: File[]) => fireEvent.change(screen.getByTestId(testId), { target: { files } });
const rows = () => screen.queryAllByTestId('upload-row');
const panel = () => screen.getByRole('region', { name: 'Uploads' });

describe('upload panel header', () => {
  const entry = (id: string, state: Partial<{ completed: boolean; canceled: boolean }> = {}) => ({
    id,
    name: id,
    type: 'file' as const,
    size: 1,
    progress: 0,
    completed: false,
    canceled: false,
    ...state,
  });

  it('reads "Uploading N file(s)" while any upload runs, counting the running ones', () => {
    expect(uploadTitle([entry('a'), entry('b'), entry('c', { completed: true })])).toBe('Uploading 2 file(s)');
  });

  it('reads "Uploaded N file(s)" once none runs, counting the completed ones', () => {
    expect(uploadTitle([entry('a', { completed: true }), entry('b', { completed: true }), entry('c', { canceled: true })])).toBe(
      'Uploaded 2 file(s)',
    );
  });
});

describe('upload progress throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes on at most one value per 200 ms, the latest one, and never 100', () => {
    const emitted: number[] = [];
    const throttle = createProgressThrottle(200, (value) => emitted.push(value));
    throttle.push(5);
    throttle.push(10);
    throttle.push(20);
    expect(emitted).toEqual([5]);
    vi.advanceTimersByTime(199);
    expect(emitted).toEqual([5]);
    vi.advanceTimersByTime(1);
    expect(emitted).toEqual([5, 20]);
    throttle.push(100);
    vi.advanceTimersByTime(1000);
    expect(emitted).toEqual([5, 20]);
    throttle.push(60);
    throttle.stop();
    vi.advanceTimersByTime(1000);
    expect(emitted).toEqual([5, 20, 60]);
  });
});

describe('upload panel', () => {
  it('shows a cancel button while running, a green check when done, a red icon when canceled, in a 300 px list', async () => {
    const { store } = renderUploads();
    store.dispatch(addUpload({ id: 'u1', name: 'a.txt', type: 'file', size: 10 }));
    store.dispatch(addUpload({ id: 'u2', name: 'b.txt', type: 'file', size: 10 }));
    store.dispatch(addUpload({ id: 'u3', name: 'Trip', type: 'folder', size: 10 }));
    store.dispatch(setUploadProgress({ id: 'u1', progress: 42 }));
    store.dispatch(completeUpload('u2'));

    await screen.findByRole('heading', { name: 'Uploading 2 file(s)' });
    expect(screen.getByTestId('upload-list').className).toContain('max-h-[300px]');
    const [running, done, folder] = rows();
    expect(within(running!).getByRole('button', { name: 'Cancel upload of a.txt' })).toBeTruthy();
    expect(within(running!).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('42');
    expect(within(done!).getByRole('img', { name: 'Uploaded' })).toBeTruthy();
    expect(within(done!).queryByRole('progressbar')).toBeNull();
    expect(within(folder!).getByRole('progressbar').hasAttribute('aria-valuenow')).toBe(false);

    store.dispatch(cancelUpload('u1'));
    store.dispatch(cancelUpload('u3'));
    await screen.findByRole('heading', { name: 'Uploaded 1 file(s)' });
    expect(within(rows()[0]!).getByRole('img', { name: 'Canceled' }).getAttribute('class')).toContain('text-red-600');

    fireEvent.click(within(panel()).getByRole('button', { name: 'Minimize uploads' }));
    expect(rows()).toHaveLength(0);
    fireEvent.click(within(panel()).getByRole('button', { name: 'Expand uploads' }));
    expect(rows()).toHaveLength(3);
  });

  it('uploads picked files into the open folder, then refetches the files and the quick list', async () => {
    onRequest('POST', '/file-service/upload', { status: 201, data: {} });
    const { invalidated } = renderUploads('/folder/f9');
    pick('upload-files-input', [file('a.txt'), file('b.txt')]);
    await screen.findByRole('heading', { name: 'Uploaded 2 file(s)' });
    const sent = requests.filter((r) => r.url === '/file-service/upload').map((r) => r.body as FormData);
    expect(sent).toHaveLength(2);
    expect(sent.map((form) => form.get('filename')).sort()).toEqual(['a.txt', 'b.txt']);
    expect(sent[0]!.get('parent')).toBe('f9');
    expect([...sent[0]!.keys()]).toEqual(['filename', 'parent', 'currentID', 'size', 'file']);
    expect(invalidated).toHaveBeenCalledWith({ queryKey: fileKeys.all });
    expect(invalidated).not.toHaveBeenCalledWith({ queryKey: folderKeys.all });
  });

  it('marks a failed upload canceled without any message', async () => {
    onRequest('POST', '/file-service/upload', { status: 500, data: { error: 'boom', code: 'INTERNAL', requestId: 'r' } });
    renderUploads();
    pick('upload-files-input', [file('broken.txt')]);
    await screen.findByRole('heading', { name: 'Uploaded 0 file(s)' });
    expect(rows()[0]!.getAttribute('data-state')).toBe('canceled');
    expect(document.querySelectorAll('.Toastify__toast')).toHaveLength(0);
  });

  it('cancel aborts the running request; close cancels everything and clears the panel', async () => {
    const abort = vi.spyOn(AbortController.prototype, 'abort');
    const pending = deferredReply({ status: 201, data: {} });
    onRequest('POST', '/file-service/upload', pending.reply);
    renderUploads();
    pick('upload-files-input', [file('slow.txt'), file('slower.txt')]);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel upload of slow.txt' }));
    expect(abort).toHaveBeenCalledTimes(1);
    expect(rows()[0]!.getAttribute('data-state')).toBe('canceled');
    await screen.findByRole('heading', { name: 'Uploading 1 file(s)' });

    fireEvent.click(within(panel()).getByRole('button', { name: 'Close uploads' }));
    expect(abort).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
    pending.release();
  });

  it('uploads a picked folder as one folder upload with each path, and refetches folders too', async () => {
    onRequest('POST', '/folder-service/upload', { status: 201, data: { files: [], folders: [] } });
    const { invalidated } = renderUploads();
    pick('upload-folder-input', [file('a.txt', 'Trip/a.txt'), file('b.txt', 'Trip/day1/b.txt')]);
    await screen.findByRole('heading', { name: 'Uploaded 1 file(s)' });
    expect(rows()[0]!.textContent).toContain('Trip');
    const form = requests.find((r) => r.url === '/folder-service/upload')!.body as FormData;
    expect(form.get('total-files')).toBe('2');
    expect(form.getAll('file-data').map((part) => JSON.parse(part as string).path)).toEqual(['Trip/a.txt', 'Trip/day1/b.txt']);
    expect(form.getAll('file')).toHaveLength(2);
    expect(invalidated).toHaveBeenCalledWith({ queryKey: folderKeys.all });
  });

  it('treats a folder pick with a file lacking its relative path as a plain upload', async () => {
    onRequest('POST', '/file-service/upload', { status: 201, data: {} });
    renderUploads();
    pick('upload-folder-input', [file('a.txt', 'Trip/a.txt'), file('loose.txt')]);
    await screen.findByRole('heading', { name: 'Uploaded 2 file(s)' });
    expect(requests.some((r) => r.url === '/folder-service/upload')).toBe(false);
  });

  it('says "No items selected" when a folder pick has no files', async () => {
    renderUploads();
    pick('upload-folder-input', []);
    await waitFor(() => expect(screen.getByText('No items selected')).toBeTruthy());
    expect(requests).toHaveLength(0);
  });
});
