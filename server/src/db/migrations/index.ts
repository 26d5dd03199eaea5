import type { Migration } from 'kysely';
import * as accountsAndSessions from './2026_11_21_0001_accounts_and_sessions.js';
import * as filesAndFolders from './2026_11_21_0002_files_and_folders.js';
import * as jobs from './2026_11_21_0003_jobs.js';
import * as fileMedia from './2026_11_21_0004_file_media.js';
import * as searchEntry from './2026_11_21_0010_search_entry.js';
import * as searchFtsOwner from './2026_11_21_0011_search_fts_owner.js';
import * as fileSortTuples from './2026_11_24_0100_file_sort_tuples.js';
import * as breakFolderCycles from './2026_11_24_0101_break_folder_cycles.js';
import * as jobLanes from './2026_11_24_0102_job_lanes.js';
import * as appPassword from './2026_11_24_0103_app_password.js';
import * as pgActiveListIndexes from './2026_11_24_0104_pg_active_list_indexes.js';
import * as webdav from './2026_11_24_0200_webdav.js';
import * as tusUpload from './2026_11_24_0201_tus_upload.js';
import * as shareLink from './2026_11_25_0300_share_link.js';
import * as dropTusUpload from './2026_11_25_0301_drop_tus_upload.js';
import * as integrityState from './2026_11_26_0400_integrity_state.js';
import * as securityEvent from './2026_11_26_0410_security_event.js';
import * as pgActiveDriveIndexes from './2026_11_27_0500_pg_active_drive_indexes.js';
import * as driveVersion from './2026_11_28_0600_drive_version.js';
import * as trashCascade from './2026_11_29_0700_trash_cascade.js';
import * as sqliteRecentInListOrder from './2026_11_30_0800_sqlite_recent_in_list_order.js';
import * as sqliteShortNameTerms from './2026_12_01_0900_sqlite_short_name_terms.js';
import * as fileCrc32 from './2026_12_02_1000_file_crc32.js';
import * as knownDevice from './2026_12_03_1100_known_device.js';
import * as households from './2026_12_04_1200_households.js';
import * as singleSignOn from './2026_12_05_1430_single_sign_on.js';
import * as passkeys from './2026_12_05_1410_passkeys.js';
import * as sessionDevices from './2026_12_05_1420_session_devices.js';
import * as twoFactor from './2026_12_05_1400_two_factor.js';
import * as fileVersions from './2026_12_06_1500_file_versions.js';
import * as tusReplaces from './2026_12_06_1510_tus_replaces.js';
import * as fileContentPeriod from './2026_12_06_1520_file_content_period.js';
import * as livePhotos from './2026_12_07_1610_live_photos.js';
import * as videoRenditions from './2026_12_07_1600_video_renditions.js';
import * as heicRawThumbnails from './2026_12_07_1650_heic_raw_thumbnails.js';
import * as searchImageEmbedding from './2026_12_10_1700_search_image_embedding.js';
import * as people from './2026_12_10_1710_people.js';

/** Forward-only, applied in name order; append new ones at the end. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_accounts_and_sessions': accountsAndSessions,
  '2026_11_21_0002_files_and_folders': filesAndFolders,
  '2026_11_21_0003_jobs': jobs,
  '2026_11_21_0004_file_media': fileMedia,
  '2026_11_21_0010_search_entry': searchEntry,
  '2026_11_21_0011_search_fts_owner': searchFtsOwner,
  '2026_11_24_0100_file_sort_tuples': fileSortTuples,
  '2026_11_24_0101_break_folder_cycles': breakFolderCycles,
  '2026_11_24_0102_job_lanes': jobLanes,
  '2026_11_24_0103_app_password': appPassword,
  '2026_11_24_0104_pg_active_list_indexes': pgActiveListIndexes,
  '2026_11_24_0200_webdav': webdav,
  '2026_11_24_0201_tus_upload': tusUpload,
  '2026_11_25_0300_share_link': shareLink,
  '2026_11_25_0301_drop_tus_upload': dropTusUpload,
  '2026_11_26_0400_integrity_state': integrityState,
  '2026_11_26_0410_security_event': securityEvent,
  '2026_11_27_0500_pg_active_drive_indexes': pgActiveDriveIndexes,
  '2026_11_28_0600_drive_version': driveVersion,
  '2026_11_29_0700_trash_cascade': trashCascade,
  '2026_11_30_0800_sqlite_recent_in_list_order': sqliteRecentInListOrder,
  '2026_12_01_0900_sqlite_short_name_terms': sqliteShortNameTerms,
  '2026_12_02_1000_file_crc32': fileCrc32,
  '2026_12_03_1100_known_device': knownDevice,
  '2026_12_04_1200_households': households,
  '2026_12_05_1430_single_sign_on': singleSignOn,
  '2026_12_05_1410_passkeys': passkeys,
  '2026_12_05_1420_session_devices': sessionDevices,
  '2026_12_05_1400_two_factor': twoFactor,
  '2026_12_06_1500_file_versions': fileVersions,
  '2026_12_06_1510_tus_replaces': tusReplaces,
  '2026_12_06_1520_file_content_period': fileContentPeriod,
  '2026_12_07_1610_live_photos': livePhotos,
  '2026_12_07_1600_video_renditions': videoRenditions,
  '2026_12_07_1650_heic_raw_thumbnails': heicRawThumbnails,
  '2026_12_10_1700_search_image_embedding': searchImageEmbedding,
  '2026_12_10_1710_people': people,
};
