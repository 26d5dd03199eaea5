/**
 * Table types. Columns are snake_case in SQL and camelCase here (CamelCasePlugin).
 * Timestamps are epoch milliseconds and flags are 0/1 integers, so one set of queries
 * runs unchanged on SQLite and PostgreSQL.
 */
export interface AccountTable {
  id: string;
  email: string;
  /** Lower-cased e-mail: the unique, case-insensitive identity. */
  emailKey: string;
  passwordHash: string;
  emailVerified: number;
  verifyEmailSentAt: number | null;
  resetEmailSentAt: number | null;
  createdAt: number;
  updatedAt: number;
  role: AccountRole;
  /** Set while the account is disabled: it cannot sign in, and its sessions, app passwords and links stop. */
  disabledAt: number | null;
  /** Set when an administrator deleted the account; a background job removes its files, then the row. */
  deletedAt: number | null;
  /** Bytes the account may store; null means the server's default quota. */
  quotaBytes: number | null;
  /** Last authenticated request, kept to the minute. */
  lastActiveAt: number | null;
  /** 0 for an account made by single sign-on that never set a password; absent on insert means 1. */
  hasPassword?: number;
  /** 0 when the account turned people (face grouping) off; absent on insert means 1. */
  peopleEnabled?: number;
}

export type AccountRole = 'admin' | 'user';

/** A server setting an administrator changed (see services/admin/server-settings.ts); `value` is JSON. */
export interface ServerSettingTable {
  key: string;
  value: string;
  updatedAt: number;
}

/** An invitation to create an account with this e-mail; only a hash of the link's token is kept. */
export interface InvitationTable {
  id: string;
  email: string;
  emailKey: string;
  tokenHash: string;
  invitedBy: string | null;
  createdAt: number;
  /** When the mail last went out; null when the link was only copied. */
  sentAt: number | null;
  expiresAt: number;
  acceptedAt: number | null;
  revokedAt: number | null;
}

export type ShareRole = 'viewer' | 'editor';

/** A file or folder of `ownerId` shared with another account. */
export interface ItemShareTable {
  id: string;
  ownerId: string;
  itemType: 'file' | 'folder';
  itemId: string;
  recipientId: string;
  role: ShareRole;
  createdAt: number;
  updatedAt: number;
}

export interface SessionTable {
  id: string;
  accountId: string;
  browserId: string;
  refreshHash: string;
  /** Hash of the refresh token this one replaced: presenting it again means theft. */
  previousRefreshHash: string | null;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** Where the session was started (Settings → Devices); null for sessions older than that list. */
  userAgent: string | null;
  clientAddress: string | null;
  signInMethod: 'password' | 'passkey' | 'oidc' | null;
}

export type AccountTokenPurpose = 'verify-email' | 'reset-password';

export interface AppPasswordTable {
  id: string;
  accountId: string;
  name: string;
  secretHash: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface AccountTokenTable {
  tokenHash: string;
  accountId: string;
  purpose: AccountTokenPurpose;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface LoginThrottleTable {
  emailKey: string;
  failures: number;
  windowStartedAt: number;
  lockedUntil: number | null;
}

/** A browser or an address group that signed in to the account: only a hash of it is kept. */
export interface KnownDeviceTable {
  accountId: string;
  deviceKey: string;
  lastSuccessAt: number;
}

export interface FolderTable {
  id: string;
  ownerId: string;
  /** Null at the root of the drive. */
  parentId: string | null;
  name: string;
  /** Lower-cased name: sort key and search key. */
  nameKey: string;
  createdAt: number;
  updatedAt: number;
  trashedAt: number | null;
  /** The folder whose trashing also trashed this item; null when trashed directly. */
  trashedVia: string | null;
}

export type MediaKind = 'photo' | 'video';
export type LinkType = 'public' | 'one';

export interface FileTable {
  id: string;
  ownerId: string;
  /** Null at the root of the drive. */
  folderId: string | null;
  filename: string;
  nameKey: string;
  /** Plaintext size in bytes. */
  size: number;
  contentType: string;
  mediaKind: MediaKind | null;
  sha256: string;
  /** CRC-32 of the plaintext, for zips; null for files stored before it was kept. */
  crc32: number | null;
  storageKey: string;
  /** The file's data key, wrapped by the master key. */
  wrappedKey: string;
  uploadedAt: number;
  updatedAt: number;
  trashedAt: number | null;
  trashedVia: string | null;
  linkType: LinkType | null;
  linkToken: string | null;
  thumbnailId: string | null;
  /** When the file first appeared; replacing its content does not change it. */
  createdAt: number;
  /** The account that stored the current content (an editor's upload is theirs); null before versions were kept. */
  contentAuthorId: string | null;
  /** The app password the current content came through (its name then), null from the web app or the API. */
  contentVia: string | null;
}

/**
 * Earlier content of a file, kept when new content replaced it. The row alone owns its blob
 * (`storageKey`, sealed with `wrappedKey`); deleting the row releases the blob.
 */
export interface FileVersionTable {
  id: string;
  fileId: string;
  /** The file's owner: versions count against the owner's quota. */
  ownerId: string;
  size: number;
  contentType: string;
  sha256: string;
  crc32: number | null;
  storageKey: string;
  wrappedKey: string;
  /** When this content was stored (became the file's content): the version's time. */
  uploadedAt: number;
  /** When newer content replaced it. */
  replacedAt: number;
  authorId: string | null;
  via: string | null;
}

/**
 * An earlier time a file had a content it has again (a restored version's), or that one of its
 * versions has: the version's row records only its latest time as the file's content. Owns no blob.
 */
export interface FileContentPeriodTable {
  id: string;
  fileId: string;
  storageKey: string;
  sha256: string;
  size: number;
  fromAt: number;
  /** When other content replaced it (exclusive). */
  untilAt: number;
}

export interface JobTable {
  id: string;
  name: string;
  /** JSON. */
  payload: string;
  dedupeKey: string | null;
  runAt: number;
  /** Place in the fair order of due jobs (see JobQueue). */
  fairAt: number;
  attempts: number;
  maxAttempts: number;
  lockedUntil: number | null;
  lockedBy: string | null;
  lastError: string | null;
  failedAt: number | null;
  createdAt: number;
}

export interface JobLaneTable {
  lane: string;
  fairAt: number;
}

export type MediaStatus = 'ready' | 'skipped' | 'failed';

/** Derived assets of a photo or video (thumbnail, browser-displayable preview) and how making them went. */
export interface FileMediaTable {
  fileId: string;
  ownerId: string;
  status: MediaStatus;
  /** Why nothing was made (skipped or failed). */
  error: string | null;
  /** Blob key of the encrypted thumbnail; also `file.thumbnail_id`. */
  thumbnailId: string | null;
  thumbnailWrappedKey: string | null;
  thumbnailSize: number | null;
  thumbnailSha256: string | null;
  thumbnailWidth: number | null;
  thumbnailHeight: number | null;
  /** Blob key of a full-size conversion, for originals a browser cannot display. */
  previewId: string | null;
  previewWrappedKey: string | null;
  previewSize: number | null;
  previewSha256: string | null;
  previewContentType: string | null;
  processedAt: number;
}

/** What the motion job found: `none` for a photo or video with neither an identifier nor a clip. */
export type MotionStatus = 'ready' | 'none' | 'skipped' | 'failed';

/** A photo's or video's Live Photo identifier or motion-photo clip (see migration 2026_12_07_1610). */
export interface FileMotionTable {
  fileId: string;
  ownerId: string;
  status: MotionStatus;
  error: string | null;
  /** Apple's content identifier, shared by a Live Photo's still and its MOV. */
  contentId: string | null;
  /** Blob key of the encrypted video clip cut out of an Android motion photo. */
  clipId: string | null;
  clipWrappedKey: string | null;
  clipSize: number | null;
  clipSha256: string | null;
  processedAt: number;
}

/** A Live Photo: its still and its MOV, of one owner. */
export interface LivePhotoTable {
  photoFileId: string;
  videoFileId: string;
  ownerId: string;
  contentId: string;
  pairedAt: number;
}

/**
 * What the video rendition jobs made of a video: `original` plays in browsers as stored,
 * `pending` awaits its rendition, `ready` has one, `failed`/`skipped` have none (error says why).
 */
export type RenditionStatus = 'original' | 'pending' | 'ready' | 'failed' | 'skipped';

/** A video's browser-playable copy (H.264/AAC in MP4), made from the content named by `sourceKey`. */
export interface FileRenditionTable {
  fileId: string;
  ownerId: string;
  /** The file's storage key when it was probed: a rendition of replaced content is never recorded. */
  sourceKey: string;
  status: RenditionStatus;
  /** `remux` copies the streams into MP4; `transcode` encodes them again. */
  method: 'remux' | 'transcode' | null;
  error: string | null;
  blobKey: string | null;
  wrappedKey: string | null;
  size: number | null;
  sha256: string | null;
  contentType: string | null;
  processedAt: number;
}

export type SearchItemType = 'file' | 'folder';
/** What AI search filters on: photos and videos as stored, documents, and images of paper (scans). */
export type SearchKind = 'photo' | 'video' | 'document' | 'scan' | 'audio' | 'other';

/** AI search's view of one file or folder (see migration 0010). */
export interface SearchEntryTable {
  itemId: string;
  itemType: SearchItemType;
  ownerId: string;
  kind: SearchKind | null;
  /** When the content was made (EXIF, video or document metadata), else the upload time. */
  contentDate: number | null;
  /** "City, Region, Country" from GPS. */
  place: string | null;
  content: string;
  body: string;
  analysisVersion: number;
  sourceUpdatedAt: number;
  modelId: string | null;
  /** int8 components, see search/embed/quantize.ts. */
  embedding: Buffer | null;
  indexedAt: number;
  /** The image–text model that embedded the picture (photos, video frames); null for other items. */
  imageModelId: string | null;
  /** int8 components of the picture's embedding, compared with a query's text embedding of that model. */
  imageEmbedding: Buffer | null;
}

/** A group of one account's faces: someone the account can name, merge, hide. */
export interface PersonTable {
  id: string;
  ownerId: string;
  name: string | null;
  /** 1: left out of the People page and of search. */
  hidden: number;
  /** The face shown for the person; null picks the best one. */
  coverFaceId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** One face found in a photo. The box is in fractions (0..1) of the upright picture. */
export interface FaceTable {
  id: string;
  ownerId: string;
  fileId: string;
  personId: string | null;
  /** The person this face was removed from; the clustering never puts it back there. */
  rejectedPersonId: string | null;
  boxX: number;
  boxY: number;
  boxW: number;
  boxH: number;
  /** The detector's confidence, 0..1. */
  score: number;
  /** float32 components of the face's descriptor. */
  descriptor: Buffer;
  /** A small JPEG of the face, sealed with the server's key (security/secret-box.ts). */
  crop: Buffer;
  createdAt: number;
}

export type FaceScanStatus = 'done' | 'failed' | 'skipped';

/** That a photo's faces were looked for, once per content and detector. */
export interface FaceScanTable {
  fileId: string;
  ownerId: string;
  status: FaceScanStatus;
  faceCount: number;
  /** Which detector and version scanned it; a new one rescans in the background. */
  detector: string;
  error: string | null;
  scannedAt: number;
}

/** A WebAuthn credential of an account; `publicKey` is its COSE key, base64url. */
export interface PasskeyTable {
  id: string;
  accountId: string;
  name: string;
  /** base64url, as the browser names the credential. */
  credentialId: string;
  publicKey: string;
  /** The authenticator's signature counter: an answer that does not move it forward is a cloned key's. */
  counter: number;
  /** JSON array of transports ("internal", "usb", "hybrid"…), passed back to browsers as hints. */
  transports: string;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: number;
  createdAt: number;
  lastUsedAt: number | null;
}

export type WebauthnChallengePurpose = 'register' | 'sign-in' | 'second-factor';

/** A ceremony's challenge, kept as a hash until its first answer or its expiry. */
export interface WebauthnChallengeTable {
  challengeHash: string;
  purpose: WebauthnChallengePurpose;
  /** Null for a sign-in, where the passkey tells whose account it is. */
  accountId: string | null;
  browserKey: string;
  expiresAt: number;
}

export interface Database {
  account: AccountTable;
  oidcIdentity: OidcIdentityTable;
  oidcLogin: OidcLoginTable;
  session: SessionTable;
  accountToken: AccountTokenTable;
  appPassword: AppPasswordTable;
  loginThrottle: LoginThrottleTable;
  knownDevice: KnownDeviceTable;
  folder: FolderTable;
  file: FileTable;
  fileVersion: FileVersionTable;
  fileContentPeriod: FileContentPeriodTable;
  job: JobTable;
  jobLane: JobLaneTable;
  searchEntry: SearchEntryTable;
  person: PersonTable;
  face: FaceTable;
  faceScan: FaceScanTable;
  fileMedia: FileMediaTable;
  fileRendition: FileRenditionTable;
  fileMotion: FileMotionTable;
  livePhoto: LivePhotoTable;
  davProperty: DavPropertyTable;
  davLock: DavLockTable;
  tusUpload: TusUploadTable;
  shareLink: ShareLinkTable;
  dropOrigin: DropOriginTable;
  integrityState: IntegrityStateTable;
  securityEvent: SecurityEventTable;
  driveVersion: DriveVersionTable;
  serverSetting: ServerSettingTable;
  invitation: InvitationTable;
  itemShare: ItemShareTable;
  passkey: PasskeyTable;
  webauthnChallenge: WebauthnChallengeTable;
  twoFactor: TwoFactorTable;
  recoveryCode: RecoveryCodeTable;
  secondFactorTicket: SecondFactorTicketTable;
}

/** An account's TOTP secret (encrypted with the server's key); pending until `enabledAt` is set. */
export interface TwoFactorTable {
  accountId: string;
  secretCipher: string;
  enabledAt: number | null;
  /** The last 30-second step a code was accepted for: that step and earlier ones are refused. */
  lastUsedStep: number | null;
  createdAt: number;
}

/** A single-use recovery code, kept only as a hash. */
export interface RecoveryCodeTable {
  accountId: string;
  codeHash: string;
  usedAt: number | null;
}

export type SecondFactorTicketPurpose = 'sign-in' | 'setup';

/** A password sign-in waiting for its second step; only a hash of the ticket and of the browser id is kept. */
export interface SecondFactorTicketTable {
  ticketHash: string;
  accountId: string;
  browserKey: string;
  purpose: SecondFactorTicketPurpose;
  expiresAt: number;
}

/**
 * Per account, a counter that changes with everything its list and user answers show; kept by
 * triggers (migration 2026_11_28_0600). No row means version 0.
 */
export interface DriveVersionTable {
  accountId: string;
  version: number;
}

/** A WebDAV dead property of a file or folder: its qualified name and its value as an XML fragment. */
export interface DavPropertyTable {
  itemId: string;
  ownerId: string;
  namespace: string;
  name: string;
  value: string;
}

export type DavLockScope = 'exclusive' | 'shared';

/** A WebDAV write lock on a path of the owner's drive (`''` is the root), with its depth. */
export interface DavLockTable {
  token: string;
  ownerId: string;
  path: string;
  depth: '0' | 'infinity';
  scope: DavLockScope;
  /** The client's DAV:owner element, given back in lockdiscovery. */
  ownerXml: string;
  timeoutSeconds: number;
  expiresAt: number;
  createdAt: number;
}

/** A resumable (tus) upload: the file row is made only when every byte is stored. */
export interface TusUploadTable {
  /** The upload URL's secret part (128+ random bits). */
  id: string;
  ownerId: string;
  folderId: string | null;
  filename: string;
  /** The Upload-Metadata header as given, answered again on HEAD. */
  metadata: string;
  length: number;
  /** Plaintext bytes stored so far. */
  offset: number;
  /** Stored pieces so far (see ResumableStore). */
  segments: number;
  storageKey: string;
  wrappedKey: string;
  /** A request is storing a piece until then: pieces of one upload never interleave. */
  leaseUntil: number | null;
  /** Set once complete: the file it became. */
  fileId: string | null;
  createdAt: number;
  expiresAt: number;
  /** The drop link a visitor sent it through, and the name they gave; null for the owner's own. */
  dropLinkId: string | null;
  uploaderName: string | null;
  /** The file whose content the upload replaces when finished; null: it makes a new file. */
  replacesFileId: string | null;
  /** The account that started the upload (an editor of a shared folder); null: the owner. */
  authorId: string | null;
}

export type ShareLinkKind = 'view' | 'drop';

/** A link to a file or folder with its options (see migration 0300). */
export interface ShareLinkTable {
  id: string;
  ownerId: string;
  kind: ShareLinkKind;
  itemType: 'file' | 'folder';
  itemId: string;
  /** The secret of the public address (256 random bits); the owner may copy the link again. */
  token: string;
  passwordHash: string | null;
  expiresAt: number | null;
  maxDownloads: number | null;
  downloads: number;
  allowDownload: number;
  maxFileBytes: number | null;
  maxFiles: number | null;
  filesReceived: number;
  createdAt: number;
  lastAccessAt: number | null;
}

/** Who sent a file through a drop link, and when. */
export interface DropOriginTable {
  fileId: string;
  ownerId: string;
  linkId: string;
  uploaderName: string | null;
  uploadedAt: number;
}

/** Where the integrity check or the scrub (`name`) stands; `data` is JSON owned by src/integrity. */
export interface IntegrityStateTable {
  name: string;
  phase: string;
  /** The last file id or blob key done in `phase`; null at its start. */
  cursor: string | null;
  data: string;
  updatedAt: number;
}

/** A single sign-on provider's user (issuer and subject) linked to an account. */
export interface OidcIdentityTable {
  issuer: string;
  subject: string;
  accountId: string;
  createdAt: number;
}

/** A single sign-on between the redirect to the provider and its return; used once. */
export interface OidcLoginTable {
  stateHash: string;
  nonce: string;
  codeVerifier: string;
  browserId: string;
  expiresAt: number;
}

/** One entry of an account's security log; `type` is a SecurityEventType, `details` JSON or null. */
export interface SecurityEventTable {
  id: string;
  accountId: string;
  type: string;
  createdAt: number;
  clientAddress: string | null;
  userAgent: string | null;
  details: string | null;
}
