import busboy, { type FileInfo } from 'busboy';
import type { FastifyRequest } from 'fastify';
import { Writable, type Readable } from 'node:stream';
import { InvalidError } from '../domain/errors.js';

export type Fields = Map<string, string[]>;

export interface MultipartLimits {
  files: number;
  fields: number;
  /** Longest single field value in bytes; a longer one fails the request (default 64 KiB). */
  fieldBytes?: number;
  /** All field values together, in bytes (default 1 MiB). */
  totalFieldBytes?: number;
}

export type FileHandler<T> = (stream: Readable, info: FileInfo & { field: string }, fields: Fields) => Promise<T>;
/** Sees each field once, as it arrives; throwing fails the request. */
export type FieldHandler = (name: string, value: string) => void;

/** Body bytes given to the parser at a time: at most a few dozen small parts' worth. */
const FEED_BYTES = 16 * 1024;
/**
 * Past this many body bytes since the last part began, the parser is inside a large file: it is
 * then given whole pieces of the body (64 KiB from a socket), since slicing them only made four
 * times the pieces for every later stage to handle one by one. The small parts after such a
 * file's end can then be one piece's worth rather than one slice's.
 */
const LARGE_PART_BYTES = 256 * 1024;

export class UploadAbortedError extends Error {
  constructor() {
    super('The client aborted the upload');
    this.name = 'UploadAbortedError';
  }
}

/**
 * Streams a multipart body: fields are collected as they come (and shown to `onField` once
 * each), each file part is handed to `onFile` in order (one at a time) with the fields seen so
 * far. Field sizes are capped one by one and in all. If the client goes away, the current file
 * stream errors so whatever consumes it can clean up.
 *
 * The body is read only as fast as its file parts are handled: busboy parses what it is given at
 * once, and a body of thousands of small files would otherwise become thousands of parts held in
 * memory, each waiting its turn.
 */
export function readMultipart<T>(
  request: FastifyRequest,
  limits: MultipartLimits,
  onFile: FileHandler<T>,
  onField?: FieldHandler,
): Promise<{ fields: Fields; results: T[] }> {
  const fieldBytes = limits.fieldBytes ?? 64 * 1024;
  const totalFieldBytes = limits.totalFieldBytes ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        limits: { files: limits.files, fields: limits.fields, fieldSize: fieldBytes, parts: limits.files + limits.fields },
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
    let fieldTotal = 0;
    /** Body bytes fed since the last part (file or field) began. */
    let sinceLastPart = 0;
    /** File parts busboy has emitted whose handler has not finished. */
    let unhandled = 0;
    let feedMore: (() => void) | null = null;
    const proceed = (): void => {
      const next = feedMore;
      feedMore = null;
      next?.();
    };
    // A part behind the one being handled means that one has all its bytes: nothing more is read
    // until it is stored. The part being handled alone may still need the next bytes of the body.
    // Busboy is given the body in slices, so it holds at most the parts one slice can carry.
    const gate = new Writable({
      write(chunk: Buffer, _encoding, done) {
        let offset = 0;
        const feed = (err?: Error | null): void => {
          if (err) return done(err);
          if (offset >= chunk.length || failed) return done();
          if (unhandled > 1) {
            feedMore = feed;
            return;
          }
          const slice = sinceLastPart >= LARGE_PART_BYTES ? chunk.subarray(offset) : chunk.subarray(offset, offset + FEED_BYTES);
          offset += slice.length;
          sinceLastPart += slice.length;
          parser.write(slice, feed);
        };
        feed();
      },
      final(done) {
        parser.end();
        done();
      },
    });
    gate.on('error', () => undefined);

    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      current?.destroy(err instanceof Error ? err : new Error(String(err)));
      request.raw.unpipe(gate);
      request.raw.resume();
      proceed();
      // The file being handled ends first, so the caller's clean-up sees everything it made.
      void chain.catch(() => undefined).then(() => reject(err));
    };

    request.raw.on('close', () => {
      if (!request.raw.complete) fail(new UploadAbortedError());
    });

    parser.on('field', (name, value, info) => {
      sinceLastPart = 0;
      if (failed) return;
      fieldTotal += Buffer.byteLength(value);
      if (info.valueTruncated) return fail(new InvalidError(`The field ${name} is longer than ${fieldBytes} bytes`));
      if (fieldTotal > totalFieldBytes) return fail(new InvalidError(`The fields are longer than ${totalFieldBytes} bytes in all`));
      try {
        onField?.(name, value);
      } catch (err) {
        return fail(err);
      }
      const values = fields.get(name);
      if (values) values.push(value);
      else fields.set(name, [value]);
    });
    parser.on('file', (field, stream, info) => {
      sinceLastPart = 0;
      // Its consumer sees errors through its own listener; this one keeps an unconsumed part from crashing.
      stream.on('error', () => undefined);
      if (failed) return stream.resume();
      unhandled++;
      chain = chain.then(async () => {
        try {
          if (failed) return void stream.resume();
          current = stream;
          results.push(await onFile(stream, { ...info, field }, fields));
          current = null;
        } finally {
          unhandled--;
          if (unhandled <= 1) proceed();
        }
      });
      chain.catch(fail);
    });
    parser.on('filesLimit', () => fail(new InvalidError('Too many files in one request')));
    parser.on('error', (err) => fail(new InvalidError(`Malformed multipart body: ${(err as Error).message}`)));
    parser.on('close', () => {
      chain.then(() => !failed && resolve({ fields, results }), fail);
    });
    request.raw.pipe(gate);
  });
}

export function field(fields: Fields, name: string): string | undefined {
  return fields.get(name)?.at(-1);
}
