import { Transform, pipeline, type Readable } from 'node:stream';
import type { TransferMeter } from './metrics.js';

/**
 * `source` as a stream that counts each chunk as the reader takes it, so an aborted download
 * counts what was sent, not the file's size. Either side's end or error ends the other.
 */
export function meteredDownload(source: Readable, meter: TransferMeter | undefined): Readable {
  if (!meter) return source;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      meter.downloaded(chunk.length);
      done(null, chunk);
    },
  });
  // Errors reach the reader through `counter`; the callback only keeps them from being unhandled.
  pipeline(source, counter, () => {});
  return counter;
}
