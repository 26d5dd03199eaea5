import { MediaUnprocessableError } from '../media/errors.js';
import { MAX_INPUT_PIXELS } from '../media/image-thumbnailer.js';
import { sharp } from '../media/sharp.js';
import { WorkerPool, compiledWorker } from '../workers/pool.js';
import { DESCRIPTOR_LENGTH, type FaceTask, type FaceTaskResult } from './face-task.js';

/** Which detector and version found a photo's faces (`face_scan.detector`); a new one rescans. */
export const DETECTOR = 'face-api-1.7.15:ssd-mobilenet-v1+landmark-68+recognition';

/** The long side photos are analysed at: faces a tenth of a 12-megapixel photo's width stay over 100 px. */
export const ANALYSIS_SIDE = 1024;
const MIN_SCORE = 0.5;
const MIN_SIDE = 32;
const MAX_FACES = 50;
const CROP_SIDE = 160;
/** Room around the detector's box in the crop (each side, as a share of the box's longer side). */
const CROP_MARGIN = 0.3;
/** A pass takes well under a second of CPU, but a niced thread may wait long on a busy machine; a stuck one ends its thread. */
const TASK_TIMEOUT_MS = 120_000;
/** The loaded networks hold about 370 MB: the thread ends this long after its last photo. */
const IDLE_MS = 60_000;

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FoundFace {
  /** Fractions (0..1) of the upright picture. */
  box: FaceBox;
  score: number;
  descriptor: Float32Array;
  /** A CROP_SIDE px square JPEG of the face with some room around it. */
  crop: Buffer;
}

interface Picture {
  rgb: Buffer;
  width: number;
  height: number;
}

/** Turns a picture upright and small enough to analyse, as raw RGB. */
async function decode(image: Buffer): Promise<Picture> {
  try {
    const { data, info } = await sharp()(image, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(ANALYSIS_SIDE, ANALYSIS_SIDE, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels`);
    return { rgb: data, width: info.width, height: info.height };
  } catch (err) {
    throw new MediaUnprocessableError(`Cannot read the image: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

function cropOf(picture: Picture, box: FaceBox): Promise<Buffer> {
  const side = Math.max(box.width, box.height) * (1 + 2 * CROP_MARGIN);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const left = Math.max(0, Math.floor(cx - side / 2));
  const top = Math.max(0, Math.floor(cy - side / 2));
  const width = Math.max(1, Math.min(picture.width - left, Math.ceil(side)));
  const height = Math.max(1, Math.min(picture.height - top, Math.ceil(side)));
  return sharp()(picture.rgb, { raw: { width: picture.width, height: picture.height, channels: 3 } })
    .extract({ left, top, width, height })
    .resize(CROP_SIDE, CROP_SIDE, { fit: 'cover' })
    .jpeg({ quality: 82 })
    .toBuffer();
}

/**
 * Finds faces in photos: decoding and crops here (libvips, off the event loop), the networks on
 * one low-priority thread with a deadline and a bounded heap, which ends when idle so its memory
 * is given back.
 */
export class FaceDetector {
  private readonly pool: WorkerPool;
  private readonly timeoutMs: number;

  constructor(options: { idleTimeoutMs?: number; taskTimeoutMs?: number } = {}) {
    this.timeoutMs = options.taskTimeoutMs ?? TASK_TIMEOUT_MS;
    this.pool = new WorkerPool({
      file: compiledWorker('people/faces.worker.js'),
      threads: 1,
      // The networks' weights live in WebAssembly memory, outside this limit; the heap holds a picture.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
      idleTimeoutMs: options.idleTimeoutMs ?? IDLE_MS,
    });
  }

  /** Faces in an encoded image that sharp reads; MediaUnprocessableError when it cannot be read. */
  async detect(image: Buffer): Promise<FoundFace[]> {
    const picture = await decode(image);
    const task: FaceTask = {
      rgb: new Uint8Array(picture.rgb.buffer, picture.rgb.byteOffset, picture.rgb.byteLength),
      width: picture.width,
      height: picture.height,
      minScore: MIN_SCORE,
      minSide: MIN_SIDE,
      maxFaces: MAX_FACES,
    };
    const result = await this.pool.run<FaceTaskResult>(task, { timeoutMs: this.timeoutMs });
    const faces: FoundFace[] = [];
    for (const [i, found] of result.boxes.entries()) {
      // The detector's box may reach past the picture's edge.
      const x = Math.max(0, found.x);
      const y = Math.max(0, found.y);
      const box = {
        x,
        y,
        width: Math.min(picture.width, found.x + found.width) - x,
        height: Math.min(picture.height, found.y + found.height) - y,
      };
      faces.push({
        box: { x: box.x / picture.width, y: box.y / picture.height, width: box.width / picture.width, height: box.height / picture.height },
        score: found.score,
        descriptor: result.descriptors.slice(i * DESCRIPTOR_LENGTH, (i + 1) * DESCRIPTOR_LENGTH),
        crop: await cropOf(picture, box),
      });
    }
    return faces;
  }

  /** Threads running now (0 once idle). */
  get threads(): number {
    return this.pool.threads;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
