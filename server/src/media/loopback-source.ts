import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { parseRange } from '../domain/byte-range.js';

export type OpenRange = (range?: { start: number; end: number }) => Promise<Readable>;

/**
 * Lends stored (decrypted) bytes to a child process as a private loopback URL with Range
 * support, so ffmpeg seeks to what it needs (an MP4's index at the end, one frame) instead of
 * reading a whole video through a pipe. An error reading the store is rethrown after `use`,
 * so the caller can tell it from a failure of the media itself.
 */
export async function withLoopbackUrl<T>(size: number, open: OpenRange, use: (url: string) => Promise<T>): Promise<T> {
  const secret = randomBytes(18).toString('base64url');
  let sourceError: unknown = null;
  const server = http.createServer((req, res) => {
    const requested = parseRange(req.headers.range, size);
    if (req.url !== `/${secret}`) {
      res.writeHead(404).end();
      return;
    }
    if (requested.kind === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    const range = requested.kind === 'partial' ? requested.range : undefined;
    open(range).then(
      (stream) => {
        const { start, end } = range ?? { start: 0, end: size - 1 };
        const headers = { 'accept-ranges': 'bytes', 'content-length': String(end - start + 1) };
        if (!range) res.writeHead(200, headers);
        else res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}` });
        // ffmpeg hangs up whenever it seeks; that is no error of the source.
        res.once('close', () => stream.destroy());
        stream.once('error', (err) => {
          sourceError ??= err;
          res.destroy();
        });
        stream.pipe(res);
      },
      (err: unknown) => {
        sourceError ??= err;
        res.destroy();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const result = await use(`http://127.0.0.1:${port}/${secret}`).catch((err: unknown) => {
      throw sourceError ?? err;
    });
    if (sourceError) throw sourceError;
    return result;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
