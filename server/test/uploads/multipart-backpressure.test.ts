import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidError } from '../../src/domain/errors.js';
import { registerErrorHandler } from '../../src/http/plugins/error-handler.js';
import { readMultipart } from '../../src/http/multipart.js';
import { multipartBody, type Part } from '../helpers/multipart.js';

const PARTS = 2000;

/** What the handlers saw of one request. */
interface Seen {
  fields: number;
  handled: number;
  /** Most fields parsed beyond the file being handled, at any file's turn. */
  mostAhead: number;
  sizes: number[];
  /** Pieces each file's stream gave, in order. */
  pieces: number[];
}

/**
 * readMultipart over real HTTP with busboy: a body of thousands of small parts is parsed only as
 * fast as its files are handled, so the parser never holds thousands of parts waiting their turn.
 */
describe('multipart bodies are read as fast as their files are handled', () => {
  let app: FastifyInstance;
  let origin: string;
  let seen: Seen;

  beforeAll(async () => {
    app = Fastify();
    registerErrorHandler(app);
    app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
    app.post('/parts', async (request) => {
      const failAt = Number((request.query as { failAt?: string }).failAt ?? -1);
      const { results } = await readMultipart(
        request,
        { files: PARTS + 1, fields: PARTS + 1 },
        async (stream) => {
          seen.mostAhead = Math.max(seen.mostAhead, seen.fields - seen.handled);
          let size = 0;
          let pieces = 0;
          for await (const piece of stream as AsyncIterable<Buffer>) {
            size += piece.length;
            pieces++;
          }
          if (seen.handled === failAt) throw new InvalidError('This part is refused');
          // Storing a file takes a moment, as a disk and a database do.
          await sleep(1);
          seen.handled++;
          seen.sizes.push(size);
          seen.pieces.push(pieces);
          return size;
        },
        () => void seen.fields++,
      );
      return { files: results.length };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const post = async (parts: Part[], query = '') => {
    seen = { fields: 0, handled: 0, mostAhead: 0, sizes: [], pieces: [] };
    const { body, contentType } = await multipartBody(parts);
    const response = await fetch(`${origin}/parts${query}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(body),
    });
    return { status: response.status, body: (await response.json()) as { files?: number; code?: string } };
  };
  // Each file follows its own field, so the fields parsed show how far the parser has read.
  const interleaved = (sizes: number[]): Part[] =>
    sizes.flatMap((size, i) => [
      { name: 'file-data', value: JSON.stringify({ index: i }) },
      { name: 'file', filename: `f${i}.txt`, data: Buffer.alloc(size, 1) },
    ]);

  it(`with ${PARTS} one-byte files, the parser stays within a few dozen parts of the file being handled`, async () => {
    const answer = await post(interleaved(Array.from({ length: PARTS }, () => 1)));
    expect(answer).toEqual({ status: 200, body: { files: PARTS } });
    expect(seen.handled).toBe(PARTS);
    expect(seen.mostAhead).toBeLessThan(100);
  });

  it('a file bigger than what is read at a time still arrives whole, between small ones', async () => {
    const sizes = [1, 3 * 1024 * 1024 + 17, 1, 1, 200_000, 1];
    const answer = await post(interleaved(sizes));
    expect(answer).toEqual({ status: 200, body: { files: sizes.length } });
    expect(seen.sizes).toEqual(sizes);
  });

  it('a large file is handed on in the pieces the body arrives in, not in the small slices the parser is fed', async () => {
    const size = 8 * 1024 * 1024;
    const answer = await post(interleaved([1, size, 1]));
    expect(answer).toEqual({ status: 200, body: { files: 3 } });
    expect(seen.sizes).toEqual([1, size, 1]);
    // Slices of 16 KiB made 512 pieces of it; the body comes in pieces of 64 KiB or more.
    expect(seen.pieces[1]).toBeLessThan(256);
  });

  it('a file refused midway fails the request at once, and the connection serves the next one', async () => {
    const refused = await post(interleaved(Array.from({ length: PARTS }, () => 1)), '?failAt=10');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(seen.handled).toBe(10);
    expect((await post(interleaved([1, 2, 3]))).body).toEqual({ files: 3 });
  });
});
