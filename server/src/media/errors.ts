/**
 * The media itself cannot be processed (corrupt, truncated, an unsupported codec): retrying will
 * not help, so the job records the reason instead of throwing.
 */
export class MediaUnprocessableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaUnprocessableError';
  }
}

/** A tool the job needs is not installed here (ffmpeg); the job records that it skipped. */
export class MediaToolMissingError extends Error {
  constructor(readonly tool: string) {
    super(`${tool} is not installed`);
    this.name = 'MediaToolMissingError';
  }
}
