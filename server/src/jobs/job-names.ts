/** Every background job. Each has exactly one handler, checked when the worker starts. */
export const JOB = {
  blobDelete: 'blob.delete',
  trashPurge: 'trash.purge',
  housekeepingPurge: 'housekeeping.purge',
  fileThumbnail: 'file.thumbnail',
  thumbnailBackfill: 'file.thumbnail-backfill',
  fileMotion: 'file.motion',
  fileMotionBackfill: 'file.motion-backfill',
  searchIndexFile: 'search.index-file',
  searchIndexFolder: 'search.index-folder',
  searchBackfill: 'search.backfill',
  integrityScrub: 'integrity.scrub',
  accountDelete: 'account.delete',
  versionsThin: 'versions.thin',
  videoProbe: 'video.probe',
  videoRendition: 'video.rendition',
  peopleScan: 'people.scan',
  peopleBackfill: 'people.backfill',
} as const;

export type JobName = (typeof JOB)[keyof typeof JOB];

export interface JobPayloads {
  'blob.delete': { keys: string[] };
  'trash.purge': Record<string, never>;
  'housekeeping.purge': Record<string, never>;
  'file.thumbnail': { fileId: string };
  'file.thumbnail-backfill': { round?: number };
  'file.motion': { fileId: string };
  'file.motion-backfill': { round?: number };
  'search.index-file': { fileId: string };
  'search.index-folder': { folderId: string; cascade: boolean };
  'search.backfill': { round?: number };
  'integrity.scrub': Record<string, never>;
  'account.delete': { accountId: string };
  'versions.thin': Record<string, never>;
  'video.probe': { fileId: string };
  'video.rendition': { fileId: string };
  'people.scan': { fileId: string };
  /** One account's photos (when it turns people on), else every account's that has people on; newest first. */
  'people.backfill': { ownerId?: string; round?: number };
}
