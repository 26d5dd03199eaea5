import { photoMotion, type PhotoMotion } from './live-photo-metadata.js';

export interface PhotoMotionTask {
  data: Uint8Array;
  contentType: string;
}

/** One photo's metadata, read on a pool thread: a crafted file costs that thread, never the server. */
export default function readPhotoMotion({ data, contentType }: PhotoMotionTask): Promise<PhotoMotion> {
  return photoMotion(Buffer.from(data.buffer, data.byteOffset, data.byteLength), contentType);
}
