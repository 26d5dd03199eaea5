export { createBackup, type BackupOptions } from './create-backup.js';
export { restoreBackup, type RestoreOptions, type RestoreResult } from './restore-backup.js';
export { BackupError, type Manifest } from './manifest.js';
