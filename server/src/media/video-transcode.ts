import { stat } from 'node:fs/promises';
import { MediaUnprocessableError } from './errors.js';
import { VIDEO_CONTAINERS } from './ffmpeg.js';
import type { PlaybackPlan, VideoProbe } from './video-probe.js';
import { lastLine, runTool } from './video-tool.js';

export interface RenditionLimits {
  /** Frames are scaled down so their shorter side is at most this (1080 makes 1080p of 4K, portrait or not). */
  maxHeight: number;
  /** ffmpeg's threads for decoding, filtering and encoding. */
  threads: number;
  /** The original's size: the rendition may not grow past a multiple of it. */
  sourceBytes: number;
}

/**
 * A rendition may take this many times the video's duration on one thread for 1080p frames, plus a
 * minute: one core of a small server transcodes 1080p HEVC at about a fifth of real time (see the
 * media benchmark). More threads shorten it (to 4× at most), larger frames lengthen it.
 */
const TIME_FACTOR_ONE_THREAD = 16;
const TIME_FACTOR_MIN = 4;
const TIME_BASE_MS = 60_000;
const FULL_HD_PIXELS = 1920 * 1080;
/** A video whose container states no duration gets this long at most. */
const UNKNOWN_DURATION_MS = 30 * 60_000;
/** HEVC at the same quality is about half H.264's size; more than this is a runaway output. */
const OUTPUT_FACTOR = 8;
const OUTPUT_FLOOR_BYTES = 256 * 1024 * 1024;

export function renditionTimeLimitMs(probe: VideoProbe, threads: number): number {
  if (probe.durationSeconds === null) return UNKNOWN_DURATION_MS;
  const frames = Math.max(1, (probe.width * probe.height) / FULL_HD_PIXELS);
  const factor = Math.max(TIME_FACTOR_MIN, TIME_FACTOR_ONE_THREAD / Math.max(1, threads)) * frames;
  return Math.ceil(probe.durationSeconds * 1000 * factor + TIME_BASE_MS);
}

/** Scale filter: the shorter side down to `maxHeight`, both sides even (4:2:0 H.264 needs it). */
function scaleFilter(probe: VideoProbe, maxHeight: number): string {
  if (Math.min(probe.width, probe.height) <= maxHeight) return 'scale=trunc(iw/2)*2:trunc(ih/2)*2';
  return probe.width >= probe.height ? `scale=-2:${maxHeight}` : `scale=${maxHeight}:-2`;
}

export function renditionArgs(
  url: string,
  output: string,
  probe: VideoProbe,
  plan: PlaybackPlan,
  limits: RenditionLimits,
  protocols = 'http,tcp',
): string[] {
  const maxOutput = Math.max(limits.sourceBytes * OUTPUT_FACTOR, OUTPUT_FLOOR_BYTES);
  const video =
    plan.method === 'remux'
      ? ['-c:v', 'copy']
      : [
          ...['-vf', scaleFilter(probe, limits.maxHeight), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23'],
          ...['-pix_fmt', 'yuv420p', '-profile:v', 'high'],
        ];
  const copyAudio = plan.method === 'remux' && plan.copyAudio;
  const audio = copyAudio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '160k', '-ac', '2'];
  return [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'],
    ...['-protocol_whitelist', protocols, '-format_whitelist', VIDEO_CONTAINERS],
    ...['-threads', String(limits.threads), '-i', url],
    // The first video and (if any) audio stream; subtitles, data and attachments stay out.
    ...['-map', '0:v:0', '-map', '0:a:0?', '-sn', '-dn', '-map_metadata', '-1', '-map_chapters', '-1'],
    ...video,
    ...audio,
    ...['-threads', String(limits.threads), '-filter_threads', String(limits.threads)],
    ...['-fs', String(maxOutput), '-movflags', '+faststart', '-f', 'mp4', output],
  ];
}

/**
 * Writes a video's browser-playable rendition (H.264/AAC in MP4, index first) to `output`, by
 * ffmpeg at low priority with a thread cap and a time limit. A failure of the media throws
 * MediaUnprocessableError; the caller removes `output` whatever happens.
 */
export async function renderVideo(
  ffmpegPath: string,
  url: string,
  output: string,
  probe: VideoProbe,
  plan: PlaybackPlan,
  limits: RenditionLimits,
): Promise<void> {
  if (plan.method === 'original') throw new Error('This video plays as it is');
  const args = renditionArgs(url, output, probe, plan, limits);
  const result = await runTool(ffmpegPath, args, { timeoutMs: renditionTimeLimitMs(probe, limits.threads), background: true });
  if (result.timedOut) throw new MediaUnprocessableError('Making the playable copy took too long');
  if (result.code !== 0) throw new MediaUnprocessableError(`Cannot convert the video: ${lastLine(result.stderr) || 'ffmpeg failed'}`);
  const written = await stat(output).catch(() => null);
  if (!written || written.size === 0) throw new MediaUnprocessableError('Cannot convert the video: nothing was written');
  // ffmpeg stops at -fs without an error: a copy that reached it is cut short.
  if (written.size >= Math.max(limits.sourceBytes * OUTPUT_FACTOR, OUTPUT_FLOOR_BYTES))
    throw new MediaUnprocessableError('The playable copy would be too large');
}
