import type { LivePhotoService } from '../../services/media/live-photo.service.js';
import type { JobHandler } from '../worker.js';

/** `file.motion`: safe to run twice; a file read before, or deleted since, only gets its pairing looked at again. */
export function handleLivePhoto(livePhotos: LivePhotoService): JobHandler<'file.motion'> {
  return async ({ fileId }) => {
    await livePhotos.analyze(fileId);
  };
}
