import type { ThumbnailService } from '../../services/media/thumbnail.service.js';
import type { JobHandler } from '../worker.js';

/** `file.thumbnail`: safe to run twice; a file processed before, or deleted since, is a no-op. */
export function handleThumbnail(thumbnails: ThumbnailService): JobHandler<'file.thumbnail'> {
  return async ({ fileId }) => {
    await thumbnails.generate(fileId);
  };
}
