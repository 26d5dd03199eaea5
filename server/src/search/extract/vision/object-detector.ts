import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { COCO_LABELS } from './coco-labels.js';

/** The detector looks at the picture squeezed to this square. */
export const DETECTOR_SIDE = 512;

export interface Detection {
  label: string;
  /** 0–1: how sure the detector is. */
  score: number;
}

interface Detector {
  detect(rgb: Uint8Array): Promise<Detection[]>;
}

/**
 * The part of TensorFlow.js used here. `@energetic-ai/core` bundles TensorFlow.js but not its type
 * declarations, so they are stated here.
 */
interface TensorInfo {
  dataId: object;
  shape: number[];
  dtype: string;
}
interface Tensor extends TensorInfo {
  array(): Promise<unknown>;
}
interface WasmBackend {
  readSync(dataId: object): ArrayLike<number>;
  makeOutput(shape: number[], dtype: string): TensorInfo;
  typedArrayFromHeap(info: TensorInfo): { [index: number]: number; length: number };
}
interface GraphModel {
  execute(input: Tensor, outputs: string[]): Tensor;
}
interface TensorFlow {
  ready(): Promise<void>;
  getKernel(name: string, backend: string): unknown;
  registerKernel(kernel: {
    kernelName: string;
    backendName: string;
    kernelFunc: (args: { inputs: Record<string, TensorInfo>; backend: WasmBackend }) => TensorInfo;
  }): void;
  tensor4d(values: Float32Array, shape: [number, number, number, number]): Tensor;
  dispose(tensors: Tensor[]): void;
  loadGraphModel(handler: unknown): Promise<GraphModel>;
  io: { fromMemory(artifacts: object): unknown };
}
interface WeightsManifestEntry {
  name: string;
  shape: number[];
  dtype: string;
}

let detector: Promise<Detector> | null = null;

/**
 * Objects and animals in a picture (the 80 kinds of the COCO set), by a CenterNet detector on a
 * MobileNetV3 backbone whose weights ship inside the `@vladmandic/human` package, run by the
 * TensorFlow.js WebAssembly build that the text-embedding model already loads (one engine per
 * thread: a second copy of TensorFlow.js would fight it for the same global). No native build,
 * no download. Loaded on first use, in the compute thread that needs it. `rgb` is DETECTOR_SIDE²
 * pixels, three bytes each.
 */
export async function detectObjects(rgb: Uint8Array): Promise<Detection[]> {
  detector ??= loadDetector().catch((err: unknown) => {
    detector = null;
    throw err;
  });
  return (await detector).detect(rgb);
}

async function loadDetector(): Promise<Detector> {
  const require = createRequire(import.meta.url);
  const tf = (await import('@energetic-ai/core')) as unknown as TensorFlow;
  await tf.ready();
  registerFloorMod(tf);

  const models = path.join(path.dirname(path.dirname(require.resolve('@vladmandic/human'))), 'models');
  const manifest = JSON.parse(await readFile(path.join(models, 'centernet.json'), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: WeightsManifestEntry[] }[];
    format?: string;
    generatedBy?: string;
    convertedBy?: string;
  };
  const [group] = manifest.weightsManifest;
  if (!group) throw new Error('The detector has no weights');
  const weights = Buffer.concat(await Promise.all(group.paths.map((p) => readFile(path.join(models, p)))));
  const model = await tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: manifest.modelTopology,
      weightSpecs: group.weights,
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      ...(manifest.format ? { format: manifest.format } : {}),
      ...(manifest.generatedBy ? { generatedBy: manifest.generatedBy } : {}),
      ...(manifest.convertedBy ? { convertedBy: manifest.convertedBy } : {}),
    }),
  );

  return {
    async detect(rgb) {
      if (rgb.length !== DETECTOR_SIDE * DETECTOR_SIDE * 3) throw new RangeError('The detector takes a 512×512 RGB picture');
      // The model takes pixel values as they are (0–255).
      const input = tf.tensor4d(Float32Array.from(rgb), [1, DETECTOR_SIDE, DETECTOR_SIDE, 3]);
      const output = model.execute(input, ['tower_0/detections']);
      try {
        // Up to 100 boxes: x1, y1, x2, y2, score, class.
        const rows = (await output.array()) as number[][][];
        const best = new Map<string, number>();
        for (const [, , , , score, cls] of rows[0] ?? []) {
          const label = COCO_LABELS[cls ?? -1];
          if (label && score !== undefined) best.set(label, Math.max(best.get(label) ?? 0, score));
        }
        return [...best].map(([label, score]) => ({ label, score })).sort((a, b) => b.score - a.score);
      } finally {
        tf.dispose([input, output]);
      }
    },
  };
}

/**
 * The detector's box decoding takes a remainder (FloorMod) of a hundred small integers, which the
 * WebAssembly backend of this TensorFlow.js build lacks: computed here, with a scalar or
 * same-shaped divisor as the model uses it.
 */
function registerFloorMod(tf: TensorFlow): void {
  if (tf.getKernel('Mod', 'wasm')) return;
  tf.registerKernel({
    kernelName: 'Mod',
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend }) => {
      const [a, b] = [inputs.a!, inputs.b!];
      const av = backend.readSync(a.dataId);
      const bv = backend.readSync(b.dataId);
      const out = backend.makeOutput(av.length >= bv.length ? a.shape : b.shape, a.dtype);
      const values = backend.typedArrayFromHeap(out);
      for (let i = 0; i < values.length; i++) {
        const x = av[av.length === 1 ? 0 : i]!;
        const y = bv[bv.length === 1 ? 0 : i]!;
        values[i] = x - Math.floor(x / y) * y;
      }
      return out;
    },
  });
}
