import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import path from 'node:path';
import { DESCRIPTOR_LENGTH, type FaceTask } from './face-task.js';

// Face passes are background work: they yield the CPU to requests (this thread's nice value only).
try {
  setPriority(0, 10);
} catch {
  // Not permitted or not supported here: run at normal priority.
}

type FaceApi = typeof import('@vladmandic/face-api/dist/face-api.node-wasm.js');

const require = createRequire(import.meta.url);
let loading: Promise<FaceApi> | null = null;

/** The three networks (detector, landmarks, descriptor), loaded by the first task of this thread. */
function models(): Promise<FaceApi> {
  loading ??= (async () => {
    const faceapi = await import('@vladmandic/face-api/dist/face-api.node-wasm.js');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    wasm.setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'))}/dist/`);
    // The bundle's typings leave out the engine's functions that its tf object has.
    const engine = faceapi.tf as unknown as { setBackend(name: string): Promise<boolean>; ready(): Promise<void> };
    await engine.setBackend('wasm');
    await engine.ready();
    const weights = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(weights);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(weights);
    await faceapi.nets.faceRecognitionNet.loadFromDisk(weights);
    return faceapi;
  })();
  return loading;
}

/**
 * Faces in one upright RGB picture: boxes in pixels of that picture, and each face's descriptor,
 * back to back in one array (DESCRIPTOR_LENGTH floats a face; half a kilobyte, copied).
 */
export default async function detectFaces(task: FaceTask): Promise<unknown> {
  const faceapi = await models();
  const input = faceapi.tf.tensor3d(task.rgb, [task.height, task.width, 3], 'int32');
  try {
    const found = await faceapi
      .detectAllFaces(input as never, new faceapi.SsdMobilenetv1Options({ minConfidence: task.minScore, maxResults: task.maxFaces }))
      .withFaceLandmarks()
      .withFaceDescriptors();
    const kept = found.filter((f) => Math.min(f.detection.box.width, f.detection.box.height) >= task.minSide);
    const descriptors = new Float32Array(kept.length * DESCRIPTOR_LENGTH);
    kept.forEach((f, i) => descriptors.set(f.descriptor, i * DESCRIPTOR_LENGTH));
    const boxes = kept.map((f) => {
      const { x, y, width, height } = f.detection.box;
      return { x, y, width, height, score: f.detection.score };
    });
    return { boxes, descriptors };
  } finally {
    input.dispose();
  }
}
