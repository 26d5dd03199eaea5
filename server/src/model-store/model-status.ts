/** Where the image–text model stands, as the logs, `GET /health/details` and the admin overview show it. */
export interface ModelStatus {
  /** The configured model, such as `Xenova/clip-vit-base-patch32`; null when SMART_SEARCH_MODEL=off. */
  model: string | null;
  /**
   * off: not configured; missing: not on disk and not being fetched; downloading; ready: verified
   * on disk; failed: the last download or check failed (`error` says why), search uses the bundled
   * pipeline meanwhile.
   */
  state: 'off' | 'missing' | 'downloading' | 'ready' | 'failed';
  bytesDone: number;
  bytesTotal: number;
  error: string | null;
  /** The folder the model's files are (or will be) in. */
  dir: string | null;
}

/** The image–text model's files on disk, fetched on first use. */
export interface SmartModelSource {
  status(): ModelStatus;
  /** The folder of a complete, verified model, or null (then search runs on the bundled pipeline). */
  readyDir(): string | null;
  /**
   * Makes the model available: at once when it is on disk, else by downloading it in the
   * background (once per process; concurrent servers share the folder safely). Never throws.
   */
  ensure(): Promise<void>;
}
