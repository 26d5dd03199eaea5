import { spawn } from 'node:child_process';
import { MediaToolMissingError, MediaUnprocessableError } from './errors.js';
import { VIDEO_CONTAINERS } from './ffmpeg.js';
import { validContentId } from './live-photo-metadata.js';

const TIMEOUT_MS = 30_000;
/** ffmetadata of a video is a few lines; more is not read. */
const MAX_OUTPUT = 256 * 1024;
const CONTENT_ID_KEY = 'com.apple.quicktime.content.identifier';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(ffmpegPath: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.length > MAX_OUTPUT) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(err.code === 'ENOENT' ? new MediaToolMissingError('ffmpeg') : err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr: stderr.trim() });
    });
  });
}

function inputArgs(url: string, formats: string): string[] {
  return [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error'],
    // Only the loopback URL, read as a plain container (no playlists naming other files or hosts).
    ...['-protocol_whitelist', 'http,tcp', '-format_whitelist', formats, '-i', url],
  ];
}

function failure(result: Run, what: string): MediaUnprocessableError {
  const reason = result.stderr.split('\n').pop() || (result.code === null ? 'ffmpeg was stopped' : 'unknown error');
  return new MediaUnprocessableError(`Cannot read the ${what}: ${reason}`);
}

/** The global section of ffmetadata output as key → value, with its escapes (\=, \;, \#, \\) undone. */
export function parseFfmetadata(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('[')) break;
    if (line.startsWith(';') || line.startsWith('#')) continue;
    const match = /^((?:[^=\\]|\\.)*)=(.*)$/.exec(line);
    if (!match) continue;
    const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
    values.set(unescape(match[1]!), unescape(match[2]!));
  }
  return values;
}

/** The Apple content identifier in a QuickTime video's metadata (a Live Photo's MOV), or null. */
export async function videoContentId(ffmpegPath: string, url: string): Promise<string | null> {
  const result = await run(ffmpegPath, [...inputArgs(url, 'mov,mp4,m4a,3gp,3g2,mj2'), '-f', 'ffmetadata', 'pipe:1']);
  if (result.code !== 0) throw failure(result, 'video');
  return validContentId(parseFfmetadata(result.stdout).get(CONTENT_ID_KEY));
}

/** Fails unless the clip holds a video stream whose first frame decodes. */
export async function checkClip(ffmpegPath: string, url: string): Promise<void> {
  const result = await run(ffmpegPath, [...inputArgs(url, VIDEO_CONTAINERS), '-map', '0:v:0', '-frames:v', '1', '-f', 'null', '-']);
  if (result.code !== 0) throw failure(result, 'motion photo video');
}
