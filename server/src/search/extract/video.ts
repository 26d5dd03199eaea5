import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { validDate, type Analysis } from './analysis.js';
import { VIDEO_CONTAINERS, frameOfFile } from '../../media/ffmpeg.js';
import { sharp } from '../../media/sharp.js';
import { pictureText, seePicture, type PictureContent } from './vision/describe-picture.js';
import { placeOf } from './places.js';

const run = promisify(execFile);

interface Probe {
  format?: { duration?: string; tags?: Record<string, string> };
  streams?: { codec_type?: string; width?: number; height?: number; tags?: Record<string, string> }[];
}

/** ISO 6709 as phones write it: "+48.8584+002.2945/" (optionally with altitude). */
function parseIso6709(value: string | undefined): [number, number] | null {
  const m = value?.match(/^([+-]\d+(?:\.\d+)?)([+-]\d+(?:\.\d+)?)/);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

async function probeFile(path: string): Promise<Probe | null> {
  try {
    const args = ['-v', 'quiet', '-protocol_whitelist', 'file', '-format_whitelist', VIDEO_CONTAINERS];
    const { stdout } = await run('ffprobe', [...args, '-print_format', 'json', '-show_format', '-show_streams', path], {
      timeout: 60_000,
      killSignal: 'SIGKILL',
      maxBuffer: 4 * 1024 * 1024,
    });
    return JSON.parse(stdout) as Probe;
  } catch {
    return null;
  }
}

/**
 * Metadata of a video file through ffprobe; without ffprobe, just the kind. With `keepFrames`, the
 * frames it sampled come back too (for the image–text model), so they are decoded once.
 */
export async function analyzeVideo(path: string, keepFrames = false): Promise<Analysis & { frames?: Buffer[] }> {
  const probe = await probeFile(path);
  if (!probe) return { kind: 'video', text: '', contentDate: null, place: null };
  const tags = Object.fromEntries(
    [...(probe.streams ?? []).map((s) => s.tags ?? {}), probe.format?.tags ?? {}]
      .flatMap((t) => Object.entries(t))
      .map(([k, v]) => [k.toLowerCase(), v]),
  );
  const gps = parseIso6709(tags['location'] ?? tags['com.apple.quicktime.location.iso6709'] ?? tags['location-eng']);
  const described = [
    'title',
    'comment',
    'description',
    'keywords',
    'artist',
    'album',
    'com.apple.quicktime.make',
    'com.apple.quicktime.model',
  ]
    .map((k) => tags[k])
    .filter(Boolean);
  const seconds = Number(probe.format?.duration ?? 0);
  const length = seconds > 0 ? (seconds < 90 ? 'short clip' : seconds > 1200 ? 'long video' : '') : '';
  const isVideo = probe.streams?.some((s) => s.codec_type === 'video') ?? false;
  const frames = isVideo ? await sampleFrames(path, seconds) : [];
  return {
    kind: isVideo ? 'video' : 'audio',
    text: [await framesText(frames), ...described, length].filter(Boolean).join(' ').trim(),
    contentDate: validDate(tags['creation_time'] ?? tags['com.apple.quicktime.creationdate'] ?? tags['date']),
    place: gps ? placeOf(gps[0], gps[1]) : null,
    ...(keepFrames ? { frames } : {}),
  };
}

/** The frames a video's analysis samples, for embedding them again without re-reading its words. */
export async function videoFrames(path: string): Promise<Buffer[]> {
  const probe = await probeFile(path);
  if (!probe?.streams?.some((s) => s.codec_type === 'video')) return [];
  return sampleFrames(path, Number(probe.format?.duration ?? 0));
}

/** Where frames are sampled, as fractions of the length: the start, the middle and near the end. */
const FRAME_POINTS = [0.1, 0.5, 0.9];

/** Frames sampled across the video (PNG); those that cannot be read are left out. */
async function sampleFrames(path: string, seconds: number): Promise<Buffer[]> {
  const frames: Buffer[] = [];
  for (const point of seconds > 0 ? FRAME_POINTS : [0]) {
    const frame = await frameOfFile('ffmpeg', path, Math.floor(seconds * point * 10) / 10).catch(() => null);
    if (frame) frames.push(frame);
  }
  return frames;
}

/** What the frames show; '' when they cannot be read. */
async function framesText(frames: Buffer[]): Promise<string> {
  const seen: PictureContent[] = [];
  for (const frame of frames) {
    try {
      seen.push(await seePicture(sharp()(frame)));
    } catch {
      // A frame that does not decode says nothing; the others may.
    }
  }
  return pictureText(seen);
}
