import { spawn } from 'node:child_process';
import { MediaToolMissingError, MediaUnprocessableError } from './errors.js';

const TIMEOUT_MS = 60_000;
/**
 * Container demuxers a video upload may use. Playlist and reference formats (hls, dash, concat,
 * ffconcat, sdp…) are left out: they make ffmpeg fetch URLs named inside the file.
 */
export const VIDEO_CONTAINERS = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,flv,ogg,asf,mpeg,mpegvideo,h264,hevc';
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

function run(ffmpegPath: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_FRAME_BYTES) child.kill('SIGKILL');
      else out.push(chunk);
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
      resolve({ code, stdout: Buffer.concat(out), stderr: stderr.trim() });
    });
  });
}

function frameArgs(url: string, atSeconds: number, protocols = 'http,tcp'): string[] {
  return [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error'],
    // Only our loopback URL (or the one local file), read as a plain container: a crafted playlist
    // must not make ffmpeg open other files or hosts.
    ...['-protocol_whitelist', protocols, '-format_whitelist', VIDEO_CONTAINERS],
    ...['-ss', String(atSeconds), '-i', url],
    ...['-frames:v', '1', '-an', '-sn', '-dn', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
  ];
}

/**
 * One decoded frame of a video as PNG, in a child process. Taken a second in (first frames are
 * often black), or from the start of shorter videos. Rotation metadata is applied by ffmpeg.
 */
export async function posterFrame(ffmpegPath: string, url: string): Promise<Buffer> {
  let last: Run | null = null;
  for (const at of [1, 0]) {
    last = await run(ffmpegPath, frameArgs(url, at));
    if (last.code === 0 && last.stdout.length > 0) return last.stdout;
    if (last.code !== 0) break;
  }
  const reason = last?.stderr.split('\n').pop() || (last?.code === null ? 'ffmpeg was stopped' : 'no video frame found');
  throw new MediaUnprocessableError(`Cannot read the video: ${reason}`);
}

/** The frame of a local video file at `atSeconds`, as PNG; null when there is none there. */
export async function frameOfFile(ffmpegPath: string, file: string, atSeconds: number): Promise<Buffer | null> {
  const result = await run(ffmpegPath, frameArgs(file, atSeconds, 'file'));
  return result.code === 0 && result.stdout.length > 0 ? result.stdout : null;
}
