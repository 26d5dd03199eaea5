import type sharp from 'sharp';
import { DETECTOR_SIDE, detectObjects, type Detection } from './object-detector.js';
import { wordsForLabel } from './label-words.js';

/** Detections at least this sure are indexed (set on the tuning part of the evaluation). */
export const MIN_DETECTION_SCORE = 0.35;
/** A colour named for a picture covers at least this share of it. */
const MIN_COLOUR_SHARE = 0.2;

export interface PictureContent {
  /** The labels seen, surest first. */
  labels: Detection[];
  /** Words for the look of the picture: dominant colours, black and white, dark. */
  look: string[];
}

/** What a picture shows, for search: detected objects and animals, and its colours. */
export async function seePicture(image: sharp.Sharp): Promise<PictureContent> {
  const { data, info } = await image
    .clone()
    .resize(DETECTOR_SIDE, DETECTOR_SIDE, { fit: 'fill' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const square = info.channels === 3 ? data : toRgb(data, info.channels);
  const labels = (await detectObjects(square)).filter((d) => d.score >= MIN_DETECTION_SCORE);
  return { labels, look: lookOf(square) };
}

/** Searchable text for what pictures show (one picture, or frames of one video). */
export function pictureText(contents: PictureContent[]): string {
  const best = new Map<string, number>();
  for (const c of contents) for (const d of c.labels) best.set(d.label, Math.max(best.get(d.label) ?? 0, d.score));
  const labels = [...best].sort((a, b) => b[1] - a[1]).map(([label]) => label);
  const look = [...new Set(contents.flatMap((c) => c.look))];
  return [labels.length > 0 && `Shows ${labels.join(', ')}.`, labels.map(wordsForLabel).join(' '), look.join(' ')]
    .filter(Boolean)
    .join(' ');
}

/** A grey picture (one channel, or grey with alpha) as three equal channels. */
function toRgb(data: Buffer, channels: number): Buffer {
  const pixels = data.length / channels;
  const rgb = Buffer.alloc(pixels * 3);
  for (let i = 0; i < pixels; i++) rgb.fill(data[i * channels]!, i * 3, i * 3 + 3);
  return rgb;
}

const HUES: [number, string][] = [
  [15, 'red'],
  [40, 'orange'],
  [70, 'yellow'],
  [165, 'green'],
  [260, 'blue'],
  [290, 'purple'],
  [335, 'pink'],
  [360, 'red'],
];

/** Colour words from the pixels (sampled on a grid): hue buckets of the vivid ones, and grey or dark overall. */
function lookOf(rgb: Buffer): string[] {
  const counts = new Map<string, number>();
  let saturation = 0;
  let brightness = 0;
  let n = 0;
  for (let i = 0; i < rgb.length; i += 3 * 7) {
    const r = rgb[i]! / 255;
    const g = rgb[i + 1]! / 255;
    const b = rgb[i + 2]! / 255;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const s = max === 0 ? 0 : (max - min) / max;
    saturation += s;
    brightness += max;
    n++;
    if (s < 0.35 || max < 0.25) continue;
    const d = max - min;
    let h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    h = (h * 60 + 360) % 360;
    const name = HUES.find(([limit]) => h < limit)?.[1] ?? 'red';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const words: string[] = [];
  if (saturation / n < 0.08) words.push('black and white', 'monochrome');
  if (brightness / n < 0.22) words.push('dark', 'night');
  for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1])) if (count / n >= MIN_COLOUR_SHARE) words.push(name);
  return words;
}
