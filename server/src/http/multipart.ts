import busboy, { type FileInfo } from 'busboy';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { InvalidError } from '../domain/errors.js';

export type Fields = Map<string, string[]>;

export interface MultipartLimits {
  files: number;
  fields: number;
}

export type FileHandler<T> = (stream: Readable, info: FileInfo & { field: string }, fields: Fields) => Promise<T>;

export class UploadAbortedError extends Error {
  constructor() {
    super('The client aborted the upload');
    this.name = 'UploadAbortedError';
  }
}

/**
 * Streams a multipart body: fields are collected as they come, each file part is handed to
 * `onFile` in order (one at a time) with the fields seen before it. If the client goes away,
 * the current file stream errors so whatever consumes it can clean up.
 */
export function readMultipart<T>(
  request: FastifyRequest,
  limits: MultipartLimits,
  onFile: FileHandler<T>,
): Promise<{ fields: Fields; results: T[] }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        limits: { files: limits.files, fields: limits.fields, fieldSize: 64 * 1024, parts: limits.files + limits.fields },
      });
    } catch {
      reject(new InvalidError('Expected a multipart/form-data body'));
      return;
    }
    const fields: Fields = new Map();
    const results: T[] = [];
    let chain: Promise<void> = Promise.resolve();
    let current: Readable | null = null;
    let failed = false;

    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      current?.destroy(err instanceof Error ? err : new Error(String(err)));
      request.raw.unpipe(parser);
      request.raw.resume();
      reject(err);
    };

    request.raw.on('close', () => {
      if (!request.raw.complete) fail(new UploadAbortedError());
    });

    parser.on('field', (name, value) => fields.set(name, [...(fields.get(name) ?? []), value]));
    parser.on('file', (field, stream, info) => {
      // Its consumer sees errors through its own listener; this one keeps an unconsumed part from crashing.
      stream.on('error', () => undefined);
      if (failed) return stream.resume();
      const snapshot = new Map(fields);
      chain = chain.then(async () => {
        if (failed) return void stream.resume();
        current = stream;
        results.push(await onFile(stream, { ...info, field }, snapshot));
        current = null;
      });
      chain.catch(fail);
    });
    parser.on('filesLimit', () => fail(new InvalidError('Too many files in one request')));
    parser.on('error', (err) => fail(new InvalidError(`Malformed multipart body: ${(err as Error).message}`)));
    parser.on('close', () => {
      chain.then(() => !failed && resolve({ fields, results }), fail);
    });
    request.raw.pipe(parser);
  });
}

export function field(fields: Fields, name: string): string | undefined {
  return fields.get(name)?.at(-1);
}
