import type { FileDto } from '@nimbus/common';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { fileKeys } from '../../api/query-keys';
import { setPopupSelect } from '../../state/selection.slice';
import { createAppStore } from '../../state/store';
import { onRequest, requestsTo } from '../../test/http-mock';
import { PopupHost } from '../popups/PopupHost';
import { AudioDetails, formatDuration } from './AudioPreview';
import { documentKind } from './document-kind';
import { hasPreview } from './preview-siblings';
import { prettyJson, TextDocument } from './TextDocument';

await Promise.all([import('./FilePreviewPopup'), import('./DocumentPreview'), import('./highlight')]);

const file = (filename: string, contentType: string, extra: Partial<FileDto['metadata']> = {}): FileDto => ({
  _id: `id-${filename}`,
  filename,
  length: 10,
  uploadDate: '2025-03-05T09:05:00',
  metadata: {
    owner: 'user-1',
    parent: '/',
    size: 10,
    contentType,
    hasThumbnail: false,
    thumbnailID: '',
    isVideo: false,
    trashed: false,
    ...extra,
  },
});

declare global {
  interface Window {
    pwned?: number;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.pwned;
});

describe('which files preview as documents', () => {
  it('tells PDFs, audio, Markdown, JSON, code and plain text apart, and leaves the rest to the details popup', () => {
    expect(documentKind(file('a.pdf', 'application/pdf'))).toBe('pdf');
    expect(documentKind(file('a.mp3', 'audio/mpeg'))).toBe('audio');
    expect(documentKind(file('a.flac', 'audio/x-flac'))).toBe('audio');
    expect(documentKind(file('README.md', 'text/markdown'))).toBe('markdown');
    expect(documentKind(file('data.json', 'application/json'))).toBe('json');
    expect(documentKind(file('main.ts', 'video/mp2t'))).toBe('code');
    expect(documentKind(file('app.py', 'text/x-python'))).toBe('code');
    expect(documentKind(file('notes.txt', 'text/plain'))).toBe('text');
    expect(documentKind(file('server.log', 'application/octet-stream'))).toBe('text');
    expect(documentKind(file('clip.ts', 'video/mp2t', { isVideo: true }))).toBeNull();
    expect(documentKind(file('photo.png', 'image/png'))).toBeNull();
    expect(documentKind(file('archive.zip', 'application/zip'))).toBeNull();
    expect(hasPreview(file('notes.txt', 'text/plain'))).toBe(true);
    expect(hasPreview(file('archive.zip', 'application/zip'))).toBe(false);
  });
});

describe('text previews', () => {
  it('renders Markdown without running or loading anything it carries', async () => {
    const hostile = [
      '# Title',
      '',
      'Some **bold** text and [a site](https://example.com/page).',
      '',
      '<script>window.pwned = 1</script>',
      '',
      '[click me](javascript:window.pwned=2)',
      '',
      '<img src="x" onerror="window.pwned = 3">',
      '',
      '![tracking pixel](https://tracker.example/pixel.png)',
      '',
      '<a href="https://example.org" onclick="window.pwned = 4">raw link</a> <iframe src="https://example.net"></iframe>',
      '',
      '<div style="position:fixed;inset:0">overlay</div><form action="/x"><input name="q"></form>',
    ].join('\n');
    render(<TextDocument text={hostile} kind="markdown" truncated={false} />);
    const article = screen.getByTestId('preview-markdown');
    expect(within(article).getByRole('heading', { name: 'Title' })).toBeTruthy();
    expect(article.querySelector('strong')?.textContent).toBe('bold');
    expect(article.querySelectorAll('script, img, iframe, form, input, [style], [onerror], [onclick]')).toHaveLength(0);
    const links = within(article).getAllByRole('link');
    for (const link of links) {
      expect(link.getAttribute('href') ?? '').not.toMatch(/^javascript:/i);
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(link.getAttribute('target')).toBe('_blank');
    }
    // The image is a link to follow by choice, never fetched by showing the file.
    expect(within(article).getByRole('link', { name: 'tracking pixel' }).getAttribute('href')).toBe('https://tracker.example/pixel.png');
    expect(within(article).getByRole('link', { name: 'a site' }).getAttribute('href')).toBe('https://example.com/page');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(window.pwned).toBeUndefined();
  });

  it('indents JSON, and shows JSON that does not parse as it is', async () => {
    expect(prettyJson('{"name":"nimbus","tags":[1,2]}')).toBe('{\n  "name": "nimbus",\n  "tags": [\n    1,\n    2\n  ]\n}');
    expect(prettyJson('{"cut": "sho')).toBe('{"cut": "sho');
    render(<TextDocument text={'{"name":"nimbus"}'} kind="json" truncated={false} />);
    const code = screen.getByTestId('preview-code');
    expect(code.textContent).toBe('{\n  "name": "nimbus"\n}');
    await waitFor(() => expect(code.querySelector('.hljs-attr')?.textContent).toBe('"name"'));
  });

  it('highlights code by its language, the code itself escaped', async () => {
    const source = 'export function greet(name: string) {\n  return `<b>${name}</b>`;\n}\n';
    render(<TextDocument text={source} kind="code" language="typescript" truncated={false} />);
    const code = screen.getByTestId('preview-code');
    await waitFor(() => expect(code.querySelector('.hljs-keyword')).not.toBeNull());
    expect(code.textContent).toBe(source);
    expect(code.querySelector('b')).toBeNull();
  });

  it('shows plain text as it is, and says when only the first megabyte is shown', () => {
    const { rerender } = render(<TextDocument text={'<b>not bold</b>\nline two'} kind="text" truncated={false} />);
    expect(screen.getByTestId('preview-text').textContent).toBe('<b>not bold</b>\nline two');
    expect(screen.queryByText('Showing the first 1 MB')).toBeNull();
    rerender(<TextDocument text="start of a long log" kind="text" truncated />);
    expect(screen.getByRole('note').textContent).toBe('Showing the first 1 MB');
  });
});

function renderPopups(cached: FileDto[]) {
  const store = createAppStore();
  const queryClient = createQueryClient();
  queryClient.setQueryData(fileKeys.list({ parent: '/' }), { pages: [cached], pageParams: [undefined] });
  const router = createMemoryRouter([{ path: '*', element: <PopupHost /> }], { initialEntries: ['/home'] });
  render(
    <AppProviders store={store} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { open: (target: FileDto) => act(() => void store.dispatch(setPopupSelect({ type: 'file', file: target }))) };
}

describe('the preview popup with documents', () => {
  it('opens a text file in the preview, asking for its first megabyte only', async () => {
    const seen: { url: string; range: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        seen.push({ url, range: new Headers(init.headers).get('range') });
        const body = new TextEncoder().encode('first line\nsecond line');
        return Promise.resolve(new Response(body, { status: 206, headers: { 'content-range': `bytes 0-21/5000000` } }));
      }),
    );
    const notes = file('notes.txt', 'text/plain');
    const { open } = renderPopups([notes]);
    open(notes);
    const preview = await screen.findByTestId('file-preview');
    expect((await within(preview).findByTestId('preview-text')).textContent).toBe('first line\nsecond line');
    expect(within(preview).getByRole('note').textContent).toBe('Showing the first 1 MB');
    expect(seen).toEqual([{ url: `/file-service/download/${notes._id}`, range: 'bytes=0-1048575' }]);
  });

  it('plays an audio file with the title, artist, album and length of its tags, and its cover', async () => {
    const song = file('song.mp3', 'audio/mpeg', { hasThumbnail: true, thumbnailID: 'cover-1' });
    onRequest('GET', `/file-service/audio-info/${song._id}`, {
      status: 200,
      data: { title: 'Blue Hour', artist: 'The Nimbus Trio', album: 'Clouds & Rain', durationSeconds: 187.4, hasCover: true },
    });
    const { open } = renderPopups([song]);
    open(song);
    const preview = await screen.findByTestId('file-preview');
    const player = await within(preview).findByTestId('preview-audio');
    expect(player.getAttribute('src')).toBe(`/file-service/download/${song._id}`);
    const details = within(preview).getByTestId('audio-info');
    await waitFor(() => expect(details.textContent).toContain('Blue Hour'));
    expect(details.textContent).toBe('Blue HourThe Nimbus TrioClouds & Rain3:07');
    expect(within(preview).getByTestId('audio-cover').getAttribute('src')).toBe('/file-service/thumbnail/cover-1');
    expect(requestsTo('GET', `/file-service/audio-info/${song._id}`)).toHaveLength(1);
  });

  it('names a track without tags by its file name, without a cover', () => {
    render(
      <AudioDetails
        file={file('untitled.ogg', 'audio/ogg')}
        info={{ title: null, artist: null, album: null, durationSeconds: null, hasCover: false }}
      />,
    );
    expect(screen.getByTestId('audio-info').textContent).toBe('untitled.ogg');
    expect(screen.queryByTestId('audio-cover')).toBeNull();
    expect(formatDuration(3727)).toBe('1:02:07');
  });
});
