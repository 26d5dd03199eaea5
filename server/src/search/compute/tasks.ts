import type { Analysis } from '../extract/analysis.js';

/** Work sent to a compute thread. Bytes are transferred, not copied. */
export type ComputeTask =
  { type: 'analyze'; filename: string; contentType: string; bytes?: Uint8Array; path?: string } | { type: 'embed'; texts: string[] };

export interface ComputeResults {
  analyze: Analysis;
  embed: Float32Array[];
}
