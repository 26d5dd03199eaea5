import type { Analysis } from '../extract/analysis.js';
import type { PictureVector } from '../extract/picture-embedding.js';

/**
 * Work sent to a compute thread. Bytes are transferred, not copied. `clipDir`/`dir` is the ready
 * image–text model's folder: with it, a photo or a video's sampled frames are embedded too.
 */
export type ComputeTask =
  | {
      type: 'analyze';
      filename: string;
      contentType: string;
      bytes?: Uint8Array;
      path?: string;
      clipDir?: string;
      pictureBytes?: Uint8Array;
    }
  | { type: 'embed'; texts: string[] }
  | { type: 'clip-image'; dir: string; contentType: string; bytes?: Uint8Array; path?: string }
  | { type: 'clip-text'; dir: string; texts: string[] };

/** What the analysis found, and the picture's embedding when a model was given. */
export type Analyzed = Analysis & { picture?: PictureVector };

export interface ComputeResults {
  analyze: Analyzed;
  embed: Float32Array[];
  'clip-image': PictureVector;
  'clip-text': Float32Array[];
}
