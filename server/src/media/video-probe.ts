import { z } from 'zod';
import { MediaUnprocessableError } from './errors.js';
import { VIDEO_CONTAINERS } from './ffmpeg.js';
import { lastLine, runTool } from './video-tool.js';

const PROBE_TIMEOUT_MS = 30_000;
/**
 * Larger frames are not decoded: 8K (7680×4320) and every camera's video fit; a crafted header
 * declaring more would make the decoder allocate gigabytes per frame.
 */
export const MAX_VIDEO_PIXELS = 8192 * 8192;

export interface VideoProbe {
  /** ffprobe's demuxer names, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`. */
  container: string;
  /** Codec of the first video stream (`h264`, `hevc`, `vp9`…). */
  videoCodec: string;
  pixelFormat: string | null;
  width: number;
  height: number;
  /** Codec of the first audio stream; null when the video is silent. */
  audioCodec: string | null;
  durationSeconds: number | null;
}

const probeOutput = z.object({
  format: z.object({ format_name: z.string(), duration: z.string().optional() }).optional(),
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        pix_fmt: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
      }),
    )
    .default([]),
});

function probeArgs(url: string, protocols: string): string[] {
  return [
    ...['-v', 'error', '-hide_banner'],
    // Only our loopback URL (or the one local file), read as a plain container: a crafted playlist
    // must not make ffprobe open other files or hosts.
    ...['-protocol_whitelist', protocols, '-format_whitelist', VIDEO_CONTAINERS],
    ...['-print_format', 'json', '-show_entries', 'format=format_name,duration:stream=codec_type,codec_name,pix_fmt,width,height'],
    ...['-i', url],
  ];
}

/** Container and codecs of a video, read by ffprobe in a child process with a time limit. */
export async function probeVideo(ffprobePath: string, url: string, protocols = 'http,tcp'): Promise<VideoProbe> {
  const result = await runTool(ffprobePath, probeArgs(url, protocols), { timeoutMs: PROBE_TIMEOUT_MS });
  if (result.code !== 0) {
    const reason = result.timedOut ? 'ffprobe took too long' : lastLine(result.stderr) || 'ffprobe failed';
    throw new MediaUnprocessableError(`Cannot read the video: ${reason}`);
  }
  let parsed: z.infer<typeof probeOutput>;
  try {
    parsed = probeOutput.parse(JSON.parse(result.stdout));
  } catch (err) {
    throw new MediaUnprocessableError('Cannot read the video: ffprobe gave no description', { cause: err });
  }
  const video = parsed.streams.find((s) => s.codec_type === 'video' && s.codec_name);
  const audio = parsed.streams.find((s) => s.codec_type === 'audio' && s.codec_name);
  if (!parsed.format || !video?.codec_name || !video.width || !video.height)
    throw new MediaUnprocessableError('Cannot read the video: no video stream');
  if (video.width * video.height > MAX_VIDEO_PIXELS)
    throw new MediaUnprocessableError(`The video's frames are too large (${video.width}×${video.height})`);
  const duration = Number(parsed.format.duration);
  return {
    container: parsed.format.format_name,
    videoCodec: video.codec_name,
    pixelFormat: video.pix_fmt ?? null,
    width: video.width,
    height: video.height,
    audioCodec: audio?.codec_name ?? null,
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null,
  };
}

/**
 * What a video needs to play in Chromium, Firefox and Safari: nothing (`original`), its streams
 * copied into MP4 (`remux`), or an H.264/AAC encoding (`transcode`).
 */
export type PlaybackPlan = { method: 'original' } | { method: 'remux'; copyAudio: boolean } | { method: 'transcode' };

/** HEVC is left out: Chromium on Linux cannot decode it. */
const PLAYABLE_VIDEO = new Set(['h264', 'vp8', 'vp9', 'av1']);
const PLAYABLE_AUDIO = new Set(['aac', 'mp3', 'opus', 'vorbis']);
/** What an MP4 rendition carries as is: H.264 and these audio codecs play from MP4 everywhere. */
const MP4_COPYABLE_AUDIO = new Set(['aac', 'mp3']);
/** Browsers decode 8-bit 4:2:0 H.264 only (High 10 and 4:2:2/4:4:4 profiles do not play). */
const PLAYABLE_H264_PIXELS = new Set(['yuv420p', 'yuvj420p']);

function isMp4Family(container: string): boolean {
  return container.split(',').includes('mp4');
}

/**
 * `contentType` tells WebM from Matroska, which ffprobe names alike (`matroska,webm`): browsers
 * play WebM, Safari and Firefox not every MKV.
 */
export function playbackPlan(probe: VideoProbe, contentType: string): PlaybackPlan {
  const h264 = probe.videoCodec === 'h264' && probe.pixelFormat !== null && PLAYABLE_H264_PIXELS.has(probe.pixelFormat);
  const videoPlays = probe.videoCodec === 'h264' ? h264 : PLAYABLE_VIDEO.has(probe.videoCodec);
  const audioPlays = probe.audioCodec === null || PLAYABLE_AUDIO.has(probe.audioCodec);
  const container = isMp4Family(probe.container) || (probe.container.includes('webm') && contentType === 'video/webm');
  if (videoPlays && audioPlays && container) return { method: 'original' };
  if (h264) return { method: 'remux', copyAudio: probe.audioCodec === null || MP4_COPYABLE_AUDIO.has(probe.audioCodec) };
  return { method: 'transcode' };
}
