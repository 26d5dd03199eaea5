import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserTransport, urlWithParams } from './transport';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('query strings', () => {
  it('leaves out empty values, writes booleans and numbers as text and arrays as repeated key[] items', () => {
    expect(urlWithParams('/a', { parent: '/', limit: 50, trashMode: true, search: undefined, gone: null })).toBe(
      '/a?parent=%2F&limit=50&trashMode=true',
    );
    expect(urlWithParams('/b', { folderIDs: ['x', 'y'] })).toBe('/b?folderIDs%5B%5D=x&folderIDs%5B%5D=y');
    expect(urlWithParams('/c?q=1', { n: 2 })).toBe('/c?q=1&n=2');
    expect(urlWithParams('/d', {})).toBe('/d');
  });
});

describe('browser transport', () => {
  it('sends plain values as JSON with the session cookies and parses a JSON answer', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true }), { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    const response = await browserTransport({ method: 'POST', url: '/x', params: { a: 1 }, data: { name: 'n' }, headers: { uuid: 'id' } });
    expect(response).toEqual({ status: 201, data: { ok: true } });
    expect(fetch).toHaveBeenCalledWith('/x?a=1', {
      method: 'POST',
      headers: { uuid: 'id', 'Content-Type': 'application/json' },
      body: '{"name":"n"}',
      credentials: 'include',
      signal: undefined,
    });
  });

  it('answers any status, with the text of a body that is not JSON and nothing for an empty one', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('Bad gateway', { status: 502 })),
    );
    await expect(browserTransport({ method: 'GET', url: '/x', headers: {} })).resolves.toEqual({ status: 502, data: 'Bad gateway' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(browserTransport({ method: 'DELETE', url: '/x', headers: {} })).resolves.toEqual({ status: 204, data: undefined });
  });

  it('sends a form through XMLHttpRequest when upload progress is asked for, and stops on abort', async () => {
    const sent: { method: string; url: string; body: unknown; headers: Record<string, string>; credentials: boolean }[] = [];
    const xhrs: FakeXhr[] = [];
    class FakeXhr {
      upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
      withCredentials = false;
      status = 0;
      responseText = '';
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      private request = { method: '', url: '', headers: {} as Record<string, string> };
      open(method: string, url: string) {
        this.request = { method, url, headers: {} };
      }
      setRequestHeader(name: string, value: string) {
        this.request.headers[name] = value;
      }
      send(body: unknown) {
        sent.push({ ...this.request, body, credentials: this.withCredentials });
        xhrs.push(this);
      }
      abort() {
        this.onabort?.();
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const form = new FormData();
    const progress: number[] = [];
    const done = browserTransport({
      method: 'POST',
      url: '/upload',
      data: form,
      headers: { uuid: 'id' },
      onUploadProgress: ({ loaded, total }) => progress.push(loaded / (total ?? 1)),
    });
    const current = xhrs[0]!;
    current.upload.onprogress!({ loaded: 5, total: 10, lengthComputable: true });
    current.status = 200;
    current.responseText = '{"_id":"f1"}';
    current.onload!();
    await expect(done).resolves.toEqual({ status: 200, data: { _id: 'f1' } });
    expect(progress).toEqual([0.5]);
    expect(sent).toEqual([{ method: 'POST', url: '/upload', body: form, headers: { uuid: 'id' }, credentials: true }]);

    const controller = new AbortController();
    const aborted = browserTransport({
      method: 'POST',
      url: '/upload',
      data: form,
      headers: {},
      signal: controller.signal,
      onUploadProgress: () => undefined,
    });
    controller.abort();
    await expect(aborted).rejects.toThrow('canceled');
  });
});
