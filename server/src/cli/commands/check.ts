import type { Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createIntegrity, DEFAULT_GRACE_MS } from '../../integrity/create-integrity.js';
import type { Finding } from '../../integrity/findings.js';
import type { CheckOptions, CheckReport } from '../../integrity/integrity-check.js';
import { systemClock } from '../../services/clock.js';
import { createBlobStore } from '../../storage/create-stores.js';
import type { Command } from '../nimbus.js';

interface CheckArgs {
  repair: boolean;
  resume: boolean;
  json: boolean;
  rateBytesPerSecond: number | null;
  graceMs: number;
}

class UsageError extends Error {}

const USAGE = 'check [--repair] [--rate MB/s] [--resume] [--grace-hours N] [--json]';
/** Exit codes: 0 clean, 1 problems found, 2 bad arguments, 130 interrupted (resume with --resume). */
const EXIT = { clean: 0, problems: 1, usage: 2, interrupted: 130 } as const;

export function parseCheckArgs(args: string[]): CheckArgs {
  const parsed: CheckArgs = { repair: false, resume: false, json: false, rateBytesPerSecond: null, graceMs: DEFAULT_GRACE_MS };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? args[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--repair') parsed.repair = true;
    else if (flag === '--resume') parsed.resume = true;
    else if (flag === '--json') parsed.json = true;
    else if (flag === '--rate') parsed.rateBytesPerSecond = positiveNumber(flag, value()) * 1_000_000;
    else if (flag === '--grace-hours') parsed.graceMs = nonNegativeNumber(flag, value()) * 3_600_000;
    else throw new UsageError(`Unknown option "${arg}"`);
  }
  return parsed;
}

function positiveNumber(flag: string, raw: string): number {
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(n > 0)) throw new UsageError(`${flag} must be a positive number, got "${raw}"`);
  return n;
}

function nonNegativeNumber(flag: string, raw: string): number {
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new UsageError(`${flag} must be a number of hours (0 or more), got "${raw}"`);
  return Number(raw);
}

export const checkCommand: Command = {
  summary:
    'Verify that every stored blob decrypts and authenticates, and that rows and blobs match.\n' +
    'Exit code 0 when clean, 1 when problems were found, 2 on bad arguments, 130 when interrupted.\n' +
    '  --repair         remove provable garbage only: blobs no row refers to (older than the grace period)\n' +
    '                   and thumbnail rows of deleted files; damaged user files are reported, never removed\n' +
    '  --rate MB/s      read stored bytes at most this fast (default: no limit)\n' +
    '  --resume         continue the last interrupted check after the last verified file\n' +
    '  --grace-hours N  leave blobs no row refers to alone until N hours old (default 24: uploads in flight)\n' +
    '  --json           print the report as JSON on stdout',
  usage: USAGE,
  async run(config: Config, args: string[]): Promise<number> {
    let parsed: CheckArgs;
    try {
      parsed = parseCheckArgs(args);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      console.error(`${err.message}\nUsage: npm run nimbus -- ${USAGE}`);
      return EXIT.usage;
    }
    const report = await runCheck(config, parsed);
    if (parsed.json) console.log(JSON.stringify(report, null, 2));
    else console.log(summarize(report));
    if (report.outcome === 'interrupted') return EXIT.interrupted;
    return report.counts.problems > 0 ? EXIT.problems : EXIT.clean;
  },
};

async function runCheck(config: Config, args: CheckArgs): Promise<CheckReport> {
  const database = openDatabase(config.db);
  const blobStore = createBlobStore(config.storage);
  const abort = new AbortController();
  const stop = () => {
    console.error('\nStopping after the blob in progress; continue later with --resume.');
    abort.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    // The check's progress lives in a table a server that was never upgraded would not have yet.
    await migrateToLatest(database.db);
    const integrity = createIntegrity({
      db: database.db,
      blobStore,
      masterKey: config.secrets.encryptionKey,
      clock: systemClock,
      log: console,
      scrub: null,
    });
    const options: CheckOptions = { ...args, signal: abort.signal, onProgress: args.json ? undefined : progressPrinter() };
    return await integrity.check.run(options);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await blobStore.close();
    await database.close();
  }
}

/** A progress line on stderr every few seconds, for a terminal only. */
function progressPrinter(): CheckOptions['onProgress'] {
  if (!process.stderr.isTTY) return undefined;
  let last = 0;
  return (p) => {
    if (Date.now() - last < 2000) return;
    last = Date.now();
    process.stderr.write(
      `\r${p.phase}: ${p.counts.files} files, ${formatBytes(p.counts.bytesVerified)} read, ${p.counts.problems} problems   `,
    );
  };
}

export function summarize(report: CheckReport): string {
  const { counts } = report;
  const lines = [
    `Nimbus integrity check: ${report.outcome}${report.resumedFrom ? ` (resumed in ${report.resumedFrom.phase}${report.resumedFrom.cursor ? ` after ${report.resumedFrom.cursor}` : ''})` : ''}`,
    `  files verified: ${counts.files}, versions: ${counts.versions ?? 0}, thumbnails and previews: ${counts.thumbnails}, video renditions: ${counts.renditions ?? 0}, motion photo clips: ${counts.motionClips ?? 0}, stored bytes read: ${formatBytes(counts.bytesVerified)}`,
    report.listedBlobs
      ? `  stored blobs listed: ${counts.blobsListed}${counts.foreignBlobs ? ` (${counts.foreignBlobs} outside Nimbus's namespaces, left alone)` : ''}`
      : '  this store cannot list its blobs: blobs without rows were not looked for',
  ];
  if (report.problems.length > 0) lines.push('', `Problems (${counts.problems}):`, ...report.problems.map(describe));
  if (counts.problems > report.problems.length) lines.push(`  … and ${counts.problems - report.problems.length} more (see --json counts)`);
  if (report.notes.length > 0) lines.push('', `Notes (${counts.notes}), not problems:`, ...report.notes.map(describe));
  lines.push('', verdict(report));
  return lines.join('\n');
}

function describe(finding: Finding): string {
  const where = [finding.fileId ? `file ${finding.fileId}` : null, finding.key ? `blob ${finding.key}` : null].filter(Boolean).join(', ');
  return `  ${finding.kind.padEnd(18)} ${where}: ${finding.detail}${finding.repaired ? ' [removed]' : ''}`;
}

function verdict(report: CheckReport): string {
  const { counts } = report;
  if (report.outcome === 'interrupted') return 'Interrupted: run again with --resume to continue where it stopped.';
  if (counts.problems === 0) return 'Clean: every blob authenticates and every row and blob match.';
  const removable = (counts.byKind['stray-blob'] ?? 0) + (counts.byKind['orphan-thumbnail'] ?? 0) - counts.repaired;
  const hint = !report.repair && removable > 0 ? ` ${removable} of them are garbage that --repair removes.` : '';
  return `${counts.problems} problem(s) found${counts.repaired ? `, ${counts.repaired} repaired` : ''}.${hint}`;
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
