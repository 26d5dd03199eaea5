// Renders real-corpus.mjs into server/eval/.real-media/ (not in git): downloads the Debian packages
// the photographs come from (apt-get download, into .real-media/debs), writes each photograph as
// the JPEG a camera would, and each clip as a 5-second H.264 video slowly zooming into its photo.
// Needs apt-get (Debian's package lists) and ffmpeg. Files already rendered are kept.
//   node server/eval/fetch-real-media.mjs [--only path,path]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { packages, realMedia } from './real-corpus.mjs';

export const realMediaDir = path.join(import.meta.dirname, '.real-media');
const debs = path.join(realMediaDir, 'debs');
/** Photos are stored at most this big (a 12-megapixel phone's long side). */
const MAX_SIDE = 4032;

// Several test processes may fetch at once: each works in its own folder and moves finished files
// into place with a rename, so none sees another's half-written file.
function debFor(pkg, scratch) {
  const find = (dir) => readdirSync(dir).find((f) => f.startsWith(`${pkg.name}_`) && f.endsWith('.deb'));
  if (!find(debs)) {
    const download = () => execFileSync('apt-get', ['download', pkg.name], { cwd: scratch, stdio: ['ignore', 'ignore', 'ignore'] });
    try {
      download();
    } catch {
      // A machine whose package lists were never fetched (or are stale) knows no such package yet.
      execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'] });
      download();
    }
    const fetched = find(scratch);
    if (!fetched) throw new Error(`apt-get download ${pkg.name} left no .deb`);
    renameSync(path.join(scratch, fetched), path.join(debs, fetched));
  }
  return path.join(debs, find(debs));
}

/** `file` (under `pkg.root`) of the Debian package `pkg`, unpacked into `scratch` once. */
export function packageFile(pkg, file, scratch) {
  const unpacked = path.join(scratch, 'unpacked', pkg.name);
  const target = path.join(unpacked, pkg.root, file);
  if (!existsSync(target)) {
    mkdirSync(debs, { recursive: true });
    mkdirSync(unpacked, { recursive: true });
    execFileSync('dpkg-deb', ['-x', debFor(pkg, scratch), unpacked]);
  }
  if (!existsSync(target)) throw new Error(`${pkg.name} has no ${file}`);
  return target;
}

const sourceOf = (item, scratch) => packageFile(packages[item.pkg], item.file, scratch);

async function renderPhoto(source, target) {
  await sharp(source)
    .rotate()
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 88 })
    .toFile(target);
}

function renderVideo(source, target, when) {
  const still = `${target}.frame.png`;
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    source,
    '-vf',
    'scale=1920:1080:force_original_aspect_ratio=increase,crop=1920:1080',
    still,
  ]);
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-loop', '1', '-i', still],
    ...['-vf', "zoompan=z='min(zoom+0.0012,1.15)':d=125:s=1280x720:fps=25", '-t', '5'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'veryfast', '-crf', '26'],
    ...['-metadata', `creation_time=${when}`, '-movflags', '+faststart', target],
  ]);
  rmSync(still, { force: true });
}

/** The clip's creation time from its phone-style name, VID_YYYYMMDD_HHMMSS. */
function videoTime(file) {
  const m = /VID_(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})/.exec(file);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : '2025-01-01T00:00:00Z';
}

export async function fetchRealMedia({ only } = {}) {
  mkdirSync(debs, { recursive: true });
  const scratch = mkdtempSync(path.join(realMediaDir, 'work-'));
  try {
    const wanted = only ? realMedia.filter((m) => only.has(m.path)) : realMedia;
    for (const item of wanted) {
      const target = path.join(realMediaDir, 'files', item.path);
      if (existsSync(target)) continue;
      mkdirSync(path.dirname(target), { recursive: true });
      const source = sourceOf(item, scratch);
      const partial = path.join(scratch, `rendered${path.extname(item.path)}`);
      if (item.path.endsWith('.mp4')) renderVideo(source, partial, videoTime(item.path));
      else await renderPhoto(source, partial);
      renameSync(partial, target);
    }
  } finally {
    // The unpacked packages are large (documentation and all); the .debs stay for the next run.
    rmSync(scratch, { recursive: true, force: true });
  }
  return path.join(realMediaDir, 'files');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--only');
  const only = at > 0 ? new Set(process.argv[at + 1].split(',')) : undefined;
  console.log(`real media in ${await fetchRealMedia({ only })}`);
}
