/** Business constants, shared by the server and the web app. */
export const LIMITS = {
  passwordMin: 6,
  passwordMax: 256,
  emailMin: 3,
  emailMax: 320,
  /** Cooldown between password-reset or verification e-mails, per account. */
  emailCooldownMs: 60_000,
  pageSize: 50,
  mediaPageSize: 100,
  quickListSize: 20,
  /** Longest file or folder name, in UTF-8 bytes. */
  nameMaxBytes: 255,
  /** Deepest folder nesting (a root folder is level 1): keeps paths, zips and tree walks bounded. */
  folderDepthMax: 256,
  /** Most folders one folder list answers when the client sets no limit (the web app sets none). */
  folderListMax: 10_000,
  accessTokenMs: 20 * 60_000,
  refreshTokenMs: 30 * 24 * 60 * 60_000,
  verifyEmailTokenMs: 24 * 60 * 60_000,
  resetPasswordTokenMs: 60 * 60_000,
  loginMaxFailures: 10,
  loginFailureWindowMs: 15 * 60_000,
  loginLockMs: 15 * 60_000,
} as const;

export const TIMINGS = {
  tokenRetryDelayMs: 150,
  tokenRefreshIntervalMs: 20 * 60_000,
  searchDebounceMs: 500,
  doubleClickMs: 1500,
  longPressMs: 500,
  uploadProgressThrottleMs: 200,
  popupCloseMs: 200,
  redirectDelayMs: 1500,
  placeholderCharMs: 60,
  placeholderPauseMs: 2000,
} as const;
