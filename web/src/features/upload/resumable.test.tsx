import type { FolderDto } from '@nimbus/common';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { createAppStore } from '../../state/store';
import { setUser } from '../../state/user.slice';
import { onRequest, requests, requestsTo } from '../../test/http-mock';
import { directorySegments, ensureFolderPath, folderIdsByPath, planFolderUpload } from './folder-upload-plan';
import { ResumeOffers } from './ResumeOffers';
import { UploadPanel } from './UploadPanel';
import { UploadRow } from './UploadRow';
import { useUploadPickers } from './useUploadPickers';

// The tus protocol itself is exercised against the real server by the browser test; here the
// panel's side of it: which files go resumably, into which folder, and what the row offers.
const resumable = vi.hoisted(() => ({
  started: [] as { owner: string; name: string; parent: string }[],
  pause: vi.fn(async () => undefined),
  resume: vi.fn(),
  cancel: vi.fn(async () => undefined),
}));
vi.mock('../../api/resumable-uploads.api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/resumable-uploads.api')>()),
  startResumableUpload: (owner: string, file: File, parent: string, onProgress: (f: number) => void) => {
    resumable.started.push({ owner, name: file.name, parent });
    onProgress(0.25);
    return { pause: resumable.pause, resume: resumable.resume, cancel: resumable.cancel, done: new Promise(() => undefined) };
  },
}));

const MiB = 1024 * 1024;
const sized = (name: string, bytes: number, relativePath = '') => {
  const f = new File([new Uint8Array(bytes)], name);
  if (relativePath) Object.defineProperty(f, 'webkitRelativePath', { value: relativePath });
  return f;
};
const folder = (_id: string, name: string, parent: string): FolderDto => ({
  _id,
  name,
  parent,
  owner: 'u1',
  createdAt: '',
  updatedAt: '',
  trashed: false,
});

function Pickers() {
  return useUploadPickers().inputs;
}

function renderDrive(path = '/home') {
  const store = createAppStore();
  store.dispatch(setUser({ _id: 'acct-1', email: 'a@example.com', emailVerified: true }));
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <Pickers />
            <UploadPanel />
            <ResumeOffers />
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders store={store} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return store;
}

/** What tus-js-client keeps in localStorage for an upload it may resume. */
function rememberUpload(owner: string, filename: string, size: number, parent = '/') {
  const key = `tus::nimbus-${owner}-${parent}-${filename}-${size}-1::${Math.random()}`;
  localStorage.setItem(
    key,
    JSON.stringify({
      size,
      metadata: { filename, parent },
      creationTime: new Date().toString(),
      uploadUrl: `/file-service/tus/${filename}`,
    }),
  );
  return key;
}

beforeEach(() => {
  resumable.started.length = 0;
  vi.clearAllMocks();
});

describe('folder upload plan', () => {
  it('sends files of 20 MiB and more resumably, the rest in the folder POST', () => {
    const small = { file: sized('a.txt', 10), path: 'Trip/a.txt' };
    const large = { file: sized('film.mp4', 20 * MiB), path: 'Trip/film.mp4' };
    expect(planFolderUpload([small, large])).toEqual({ small: [small], large: [large] });
  });

  it('rebuilds each created folder path from names and parents, ignoring folders outside the upload', () => {
    const ids = folderIdsByPath(
      [folder('f3', 'day 2', 'f1'), folder('f1', 'Trip', 'root'), folder('f2', 'day 1', 'f1'), folder('x', 'stray', 'elsewhere')],
      'root',
    );
    expect([...ids]).toEqual([
      ['Trip/day 2', 'f3'],
      ['Trip', 'f1'],
      ['Trip/day 1', 'f2'],
    ]);
    expect(directorySegments('Trip/day 1/a.jpg')).toEqual(['Trip', 'day 1']);
    expect(directorySegments('../a.jpg')).toEqual([]);
  });

  it('makes only the folders that are missing, once each', async () => {
    const known = new Map([['Trip', 'f1']]);
    const create = vi.fn(async (name: string, parent: string) => folder(`${parent}>${name}`, name, parent));
    expect(await ensureFolderPath(['Trip', 'videos'], '/', known, create)).toBe('f1>videos');
    expect(await ensureFolderPath(['Trip', 'videos'], '/', known, create)).toBe('f1>videos');
    expect(create).toHaveBeenCalledTimes(1);
    expect(await ensureFolderPath([], 'root', known, create)).toBe('root');
  });
});

describe('resumable uploads in the panel', () => {
  it('sends a big picked file resumably into the open folder, with pause and resume on its row', async () => {
    const store = renderDrive('/folder/f9');
    fireEvent.change(screen.getByTestId('upload-files-input'), { target: { files: [sized('film.mp4', 20 * MiB)] } });
    await waitFor(() => expect(resumable.started).toEqual([{ owner: 'acct-1', name: 'film.mp4', parent: 'f9' }]));
    expect(requestsTo('POST', '/file-service/upload')).toHaveLength(0);

    fireEvent.click(await screen.findByRole('button', { name: 'Pause upload of film.mp4' }));
    expect(resumable.pause).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('upload-row').getAttribute('data-state')).toBe('paused');
    fireEvent.click(screen.getByRole('button', { name: 'Resume upload of film.mp4' }));
    expect(resumable.resume).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('upload-row').getAttribute('data-state')).toBe('uploading');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel upload of film.mp4' }));
    expect(resumable.cancel).toHaveBeenCalledTimes(1);
    expect(store.getState().upload.uploads[0]!.canceled).toBe(true);
  });

  it('keeps small files on the one-request upload without a pause button', async () => {
    onRequest('POST', '/file-service/upload', { status: 201, data: {} });
    renderDrive();
    fireEvent.change(screen.getByTestId('upload-files-input'), { target: { files: [sized('note.txt', 5)] } });
    await screen.findByRole('heading', { name: 'Uploaded 1 file(s)' });
    expect(screen.queryByRole('button', { name: /Pause upload/ })).toBeNull();
    expect(resumable.started).toHaveLength(0);
  });

  it('puts a folder’s big files into the folders its POST made, making the ones only big files live in', async () => {
    onRequest('POST', '/folder-service/upload', { status: 201, data: { files: [], folders: [folder('f1', 'Trip', 'f9')] } });
    onRequest('POST', '/folder-service/create', (request) => {
      const body = request.body as { name: string; parent: string };
      return { status: 201, data: folder('f2', body.name, body.parent) };
    });
    renderDrive('/folder/f9');
    fireEvent.change(screen.getByTestId('upload-folder-input'), {
      target: {
        files: [
          sized('a.txt', 3, 'Trip/a.txt'),
          sized('big.mov', 21 * MiB, 'Trip/big.mov'),
          sized('long.mov', 20 * MiB, 'Trip/videos/long.mov'),
        ],
      },
    });
    await waitFor(() => expect(resumable.started).toHaveLength(2));
    const form = requestsTo('POST', '/folder-service/upload')[0]!.body as FormData;
    expect(form.get('total-files')).toBe('1');
    expect(form.getAll('file-data').map((part) => JSON.parse(part as string).path)).toEqual(['Trip/a.txt']);
    expect(requestsTo('POST', '/folder-service/create').map((r) => r.body)).toEqual([{ name: 'videos', parent: 'f1' }]);
    expect(resumable.started).toEqual([
      { owner: 'acct-1', name: 'big.mov', parent: 'f1' },
      { owner: 'acct-1', name: 'long.mov', parent: 'f2' },
    ]);
    const rows = screen.getAllByTestId('upload-row');
    expect(rows.map((row) => row.querySelector('span')?.textContent)).toEqual(['Trip', 'big.mov', 'long.mov']);
  });

  it('makes the whole tree itself when a folder holds only big files', async () => {
    let made = 0;
    onRequest('POST', '/folder-service/create', (request) => {
      const body = request.body as { name: string; parent: string };
      return { status: 201, data: folder(`n${++made}`, body.name, body.parent) };
    });
    renderDrive();
    fireEvent.change(screen.getByTestId('upload-folder-input'), { target: { files: [sized('big.mov', 20 * MiB, 'Films/big.mov')] } });
    await waitFor(() => expect(resumable.started).toEqual([{ owner: 'acct-1', name: 'big.mov', parent: 'n1' }]));
    expect(requestsTo('POST', '/folder-service/upload')).toHaveLength(0);
    expect(requestsTo('POST', '/folder-service/create').map((r) => r.body)).toEqual([{ name: 'Films', parent: '/' }]);
  });
});

describe('upload row', () => {
  const entry = { id: 'u1', name: 'film.mp4', type: 'file' as const, size: 1, progress: 10, completed: false, canceled: false };

  it('offers pause only for resumable uploads that still run', () => {
    const onPause = vi.fn();
    const { rerender } = render(<UploadRow upload={{ ...entry, resumable: true }} onCancel={vi.fn()} onPause={onPause} />);
    fireEvent.click(screen.getByRole('button', { name: 'Pause upload of film.mp4' }));
    expect(onPause).toHaveBeenCalledWith('u1', true);
    rerender(<UploadRow upload={{ ...entry, resumable: true, completed: true }} onCancel={vi.fn()} onPause={onPause} />);
    expect(screen.queryByRole('button', { name: /upload of film.mp4/ })).toBeNull();
    rerender(<UploadRow upload={entry} onCancel={vi.fn()} onPause={onPause} />);
    expect(screen.queryByRole('button', { name: /Pause/ })).toBeNull();
  });
});

describe('unfinished uploads', () => {
  it('offers this account’s interrupted uploads only, and resumes one when the same file is picked', async () => {
    rememberUpload('acct-1', 'film.mp4', 20 * MiB, 'f4');
    rememberUpload('someone-else', 'secret.mov', 30 * MiB);
    renderDrive();
    const card = await screen.findByRole('region', { name: 'Unfinished uploads' });
    expect(within(card).getByText('film.mp4')).toBeTruthy();
    expect(within(card).queryByText('secret.mov')).toBeNull();

    fireEvent.click(within(card).getByRole('button', { name: 'Pick film.mp4 again to resume it' }));
    fireEvent.change(screen.getByTestId('resume-file-input'), { target: { files: [sized('other.mp4', 20 * MiB)] } });
    expect(within(card).getByRole('alert').textContent).toContain('pick the same file');
    expect(resumable.started).toHaveLength(0);

    fireEvent.click(within(card).getByRole('button', { name: 'Pick film.mp4 again to resume it' }));
    fireEvent.change(screen.getByTestId('resume-file-input'), { target: { files: [sized('film.mp4', 20 * MiB)] } });
    await waitFor(() => expect(resumable.started).toEqual([{ owner: 'acct-1', name: 'film.mp4', parent: 'f4' }]));
    expect(screen.queryByRole('region', { name: 'Unfinished uploads' })).toBeNull();
  });

  it('discard forgets the upload', async () => {
    const key = rememberUpload('acct-1', 'film.mp4', 20 * MiB);
    renderDrive();
    fireEvent.click(await screen.findByRole('button', { name: 'Discard upload of film.mp4' }));
    expect(screen.queryByRole('region', { name: 'Unfinished uploads' })).toBeNull();
    await waitFor(() => expect(localStorage.getItem(key)).toBeNull());
    expect(requests).toHaveLength(0);
  });
});
