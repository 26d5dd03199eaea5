// Shared steps of `npm start` and `npm test`. Node built-ins only: this runs before any install.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function mustRun(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed (exit ${status})`);
    process.exit(status);
  }
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function mtime(file) {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

/** npm ci on a fresh clone; npm install when package.json or the lock changed since the last install. */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const manifests = [
    'package.json',
    'package-lock.json',
    'common/package.json',
    'server/package.json',
    'web/package.json',
    'e2e/package.json',
  ].map((f) => mtime(path.join(root, f)));
  if (existsSync(marker) && mtime(marker) >= Math.max(...manifests)) return;
  const fresh = !existsSync(path.join(root, 'node_modules')) && existsSync(path.join(root, 'package-lock.json'));
  console.log(fresh ? '> installing dependencies (npm ci)' : '> updating dependencies (npm install)');
  mustRun('npm', [fresh ? 'ci' : 'install', '--no-audit', '--no-fund']);
}

/** Compiles common and server (incremental) and rebuilds the web app when its sources are newer. */
export function ensureBuilt() {
  mustRun('npx', ['tsc', '-b', 'common', 'server']);
  const webOut = path.join(root, 'web', 'dist', 'index.html');
  const webInputs = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'common/src'].map((p) =>
    newestMtime(path.join(root, p)),
  );
  if (existsSync(path.join(root, 'web', 'index.html')) && mtime(webOut) < Math.max(...webInputs)) {
    console.log('> building the web app');
    mustRun('npm', ['run', 'build', '-w', 'web']);
  }
}

/** Debian packages some suites need, installed when missing and allowed (root). */
export function ensureDebianPackage(binary, pkg) {
  if (existsSync(binary)) return true;
  if (process.getuid?.() !== 0) {
    console.warn(`! ${binary} is missing and installing ${pkg} needs root`);
    return false;
  }
  console.log(`> installing ${pkg} from Debian`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env }) !== 0) {
    run('apt-get', ['update'], { env });
    run('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env });
  }
  return existsSync(binary);
}
