import type { RenditionService } from '../../services/media/rendition.service.js';
import type { JobHandler } from '../worker.js';

/** `video.probe`: safe to run twice; a video probed before, or deleted since, is a no-op. */
export function handleVideoProbe(renditions: RenditionService): JobHandler<'video.probe'> {
  return async ({ fileId }) => {
    await renditions.probe(fileId);
  };
}

/** `video.rendition`: makes a pending video's rendition; its last attempt records a failure instead of throwing. */
export function handleVideoRendition(renditions: RenditionService): JobHandler<'video.rendition'> {
  return async ({ fileId }, job) => {
    await renditions.render(fileId, job.attempts >= job.maxAttempts);
  };
}
