import path from 'node:path';
import { BackupError, createBackup } from '../../backup/index.js';
import type { Command } from '../nimbus.js';
import { parseArgs, UsageError } from './args.js';

const USAGE = 'backup DIR [--include-master-key]';

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export const backupCommand: Command = {
  summary: 'Back up the database and every stored file into DIR while the server keeps running.',
  usage: USAGE,
  async run(config, args) {
    let dir: string;
    let includeMasterKey: boolean;
    try {
      const parsed = parseArgs(args, { flags: ['--include-master-key'], values: [] });
      if (parsed.positional.length !== 1) throw new UsageError('Give one directory to write the backup into');
      dir = path.resolve(parsed.positional[0] as string);
      includeMasterKey = parsed.flags.has('--include-master-key');
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      console.error(`${err.message}\nUsage: npm run nimbus -- ${USAGE}`);
      return 2;
    }
    // Whatever the shell's umask, nothing this process writes is readable by other users; the
    // backup sets its own files' modes as well, this covers what a library creates on its own.
    process.umask(0o077);
    try {
      const m = await createBackup(config, dir, { includeMasterKey });
      console.log(
        `Backup written to ${dir} in ${(m.durationMs / 1000).toFixed(1)} s: ${m.database.kind} database (${mib(m.database.size)}), ` +
          `${m.blobs.count} stored objects (${mib(m.blobs.bytes)}), ${m.counts.accounts} accounts, ${m.counts.folders} folders, ${m.counts.files} files.`,
      );
      if (m.blobs.gone.length > 0) {
        console.log(
          `${m.blobs.gone.length} stored objects were deleted from the drive while the backup ran; a restore leaves their files out too.`,
        );
      }
      console.log(
        includeMasterKey
          ? 'The backup CONTAINS the master encryption key (secrets.json): anyone who reads it can read every file. Keep it as safe as the server.'
          : 'The backup does NOT contain the master key: keep ENCRYPTION_KEY and SECRET_KEY (or DATA_DIR/secrets.json) somewhere else — without them the backed-up files cannot be read.',
      );
      if (m.blobs.missing.length > 0) {
        console.error(
          `WARNING: ${m.blobs.missing.length} stored objects the database still refers to are missing from the store (lost before this backup): ${m.blobs.missing.slice(0, 10).join(', ')}`,
        );
        return 1;
      }
      return 0;
    } catch (err) {
      if (!(err instanceof BackupError)) throw err;
      console.error(`Backup failed: ${err.message}`);
      return 1;
    }
  },
};
