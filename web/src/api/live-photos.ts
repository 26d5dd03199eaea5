import type { FileDto } from '@nimbus/common';
import { streamVideoUrl } from './media.api';

/** The motion of a gallery photo: its Live Photo's MOV, or the clip a motion photo carries; null for a still. */
export function motionUrlOf(file: FileDto): string | null {
  const { livePhoto, motion } = file.metadata;
  if (livePhoto) return streamVideoUrl(livePhoto.videoId);
  return motion?.url ?? null;
}
