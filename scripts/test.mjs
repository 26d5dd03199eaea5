// `npm test`: installs what is missing, builds, runs every suite and ends with `N passed, N failed, N skipped`.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ensureBuilt, ensureDebianPackage, ensureDependencies, root, run } from './lib.mjs';

const required = process.env.CI === 'true' || process.env.NIMBUS_REQUIRE_POSTGRES === '1';
const pgUrl = new URL(process.env.NIMBUS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');

ensureDependencies();
ensureBuilt();
const hasChromium = ensureDebianPackage('/usr/bin/chromium', 'chromium');
ensureDebianPackage('/usr/bin/ffmpeg', 'ffmpeg');
// Real WebDAV clients for the WebDAV suites: the compliance suite and a sync tool.
ensureDebianPackage('/usr/bin/litmus', 'litmus');
ensureDebianPackage('/usr/bin/rclone', 'rclone');
// Real HEIC/AVIF encoder and an EXIF writer for the image-format suites.
ensureDebianPackage('/usr/bin/heif-enc', 'libheif-examples');
ensureDebianPackage('/usr/bin/exiftool', 'libimage-exiftool-perl');

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const hasPostgres = await reachable(pgUrl.hostname, pgUrl.port || 5432);
if (!hasPostgres && required) {
  console.error(`PostgreSQL at ${pgUrl.host} is required here (CI) but not reachable.`);
  process.exit(1);
}
if (!hasPostgres) {
  console.warn(`! PostgreSQL at ${pgUrl.host} is not reachable: its suites are skipped.`);
  process.env.NIMBUS_SKIP_POSTGRES = '1';
}

const resultsDir = path.join(root, '.test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const suites = [
  { name: 'server', cwd: 'server', args: ['--project', 'unit', '--project', 'sqlite', ...(hasPostgres ? ['--project', 'postgres'] : [])] },
  { name: 'web', cwd: 'web', args: [], when: existsSync(path.join(root, 'web', 'vitest.config.ts')) },
  { name: 'e2e', cwd: 'e2e', args: [], when: existsSync(path.join(root, 'e2e', 'vitest.config.ts')) && hasChromium },
];

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
for (const suite of suites) {
  if (suite.when === false) continue;
  const output = path.join(resultsDir, `${suite.name}.json`);
  console.log(`\n> ${suite.name} tests`);
  const status = run('npx', ['vitest', 'run', ...suite.args, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`], {
    cwd: path.join(root, suite.cwd),
  });
  let counts = { passed: 0, failed: 0, skipped: 0 };
  if (existsSync(output)) {
    const report = JSON.parse(readFileSync(output, 'utf8'));
    counts = { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + (report.numTodoTests ?? 0) };
  }
  // A runner that crashed, or failed outside any test (a broken file), still counts as a failure.
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  lines.push(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
}

console.log(`\n${lines.join('\n')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
