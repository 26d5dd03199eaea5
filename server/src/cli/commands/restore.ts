import path from 'node:path';
import { BackupError, restoreBackup } from '../../backup/index.js';
import type { Command } from '../nimbus.js';
import { parseArgs, UsageError } from './args.js';

const USAGE = 'restore DIR [--force] [--key-file secrets.json]';

export const restoreCommand: Command = {
  summary: "Rebuild this server's database and file store from a backup (run it with the server stopped).",
  usage: USAGE,
  async run(config, args) {
    let dir: string;
    let force: boolean;
    let keyFile: string | null;
    try {
      const parsed = parseArgs(args, { flags: ['--force'], values: ['--key-file'] });
      if (parsed.positional.length !== 1) throw new UsageError('Give the directory of the backup to restore');
      dir = path.resolve(parsed.positional[0] as string);
      force = parsed.flags.has('--force');
      const given = parsed.values.get('--key-file');
      keyFile = given ? path.resolve(given) : null;
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      console.error(`${err.message}\nUsage: npm run nimbus -- ${USAGE}`);
      return 2;
    }
    try {
      const r = await restoreBackup(config, dir, { force, keyFile });
      console.log(
        `Restored the backup of ${r.manifest.createdAt}: ${r.manifest.counts.accounts} accounts, ${r.manifest.counts.files - r.droppedFiles} files, ${r.blobs} stored objects.`,
      );
      if (r.wroteSecretsFile) console.log(`The backup's keys were written to ${path.join(config.dataDir, 'secrets.json')}.`);
      if (r.droppedFiles > 0) console.log(`${r.droppedFiles} files deleted on the drive while the backup ran were left out.`);
      if (r.manifest.blobs.missing.length > 0) {
        console.error(
          `WARNING: ${r.manifest.blobs.missing.length} stored objects were already missing when the backup was made; their files cannot be downloaded.`,
        );
      }
      if (r.sessionsEnd) console.log('The token signing key differs from the backed-up server: everyone signs in again.');
      return 0;
    } catch (err) {
      if (!(err instanceof BackupError)) throw err;
      console.error(`Restore failed: ${err.message}`);
      return 1;
    }
  },
};
