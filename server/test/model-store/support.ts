import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { SmartModelConfig } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';

export const REPO = 'tester/clip-stand-in';

/**
 * Files named like a CLIP model's, with random bytes: the store never reads them. `tokenizer.json`
 * is over 1 MB (an LFS file by size), the ONNX files are LFS by name, and the repository also holds
 * a full-precision tower the store must not fetch.
 */
export async function writeFakeModel(dir: string): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {
    'config.json': Buffer.from(JSON.stringify({ model_type: 'clip', projection_dim: 8 })),
    'preprocessor_config.json': Buffer.from(JSON.stringify({ size: 32 })),
    'tokenizer.json': randomBytes(1_200_000),
    'tokenizer_config.json': Buffer.from('{}'),
    'special_tokens_map.json': Buffer.from('{}'),
    'onnx/vision_model_quantized.onnx': randomBytes(400_000),
    'onnx/text_model_quantized.onnx': randomBytes(300_000),
    'onnx/vision_model.onnx': randomBytes(50_000),
    'README.md': Buffer.from('# a stand-in\n'),
  };
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), bytes);
  }
  return files;
}

export const FETCHED = [
  'config.json',
  'preprocessor_config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'onnx/vision_model_quantized.onnx',
  'onnx/text_model_quantized.onnx',
];

export async function tempDir(name: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `nimbus-${name}-`));
}

export function modelConfig(dir: string, hubUrl: string, id = REPO): SmartModelConfig {
  return { id, revision: 'main', dir, hubUrl };
}

/** A logger that keeps each line as `level: message`. */
export function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (obj: unknown, msg?: string) => void lines.push(`${level}: ${msg ?? String(obj)}`);
  return { lines, info: keep('info'), warn: keep('warn'), error: keep('error') };
}

export async function sameBytes(file: string, expected: Buffer): Promise<boolean> {
  return (await readFile(file)).equals(expected);
}

/** A port on 127.0.0.1 nothing listens on: connections to it are refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
