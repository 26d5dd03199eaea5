/** Floats in a face descriptor of the recognition network. */
export const DESCRIPTOR_LENGTH = 128;

/** One picture for the face thread: upright, RGB, 8 bits a channel, at most ANALYSIS_SIDE on its long side. */
export interface FaceTask {
  rgb: Uint8Array;
  width: number;
  height: number;
  /** Faces the detector is less sure of are left out. */
  minScore: number;
  /** Faces smaller than this (pixels of this picture) are left out: their descriptors are unreliable. */
  minSide: number;
  maxFaces: number;
}

export interface FaceTaskResult {
  /** Pixels of the picture given. */
  boxes: { x: number; y: number; width: number; height: number; score: number }[];
  /** DESCRIPTOR_LENGTH floats a box, in the order of `boxes`. */
  descriptors: Float32Array;
}
