import { mkdtemp, readdir, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeForClip } from '../../src/search/embed/clip-image.js';
import { clipImageEmbeddings, clipTextEmbeddings, releaseClip, type RgbImage } from '../../src/search/embed/clip-model.js';
import { writeTinyClip } from '../support/tiny-clip/tiny-clip.js';

const DIMS = 24;
const HUB_LAYOUT = [
  'config.json',
  'onnx/text_model_quantized.onnx',
  'onnx/vision_model_quantized.onnx',
  'preprocessor_config.json',
  'special_tokens_map.json',
  'tokenizer.json',
  'tokenizer_config.json',
];

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}

function length(v: Float32Array): number {
  return Math.sqrt(cosine(v, v));
}

/** A horizontal gradient from one colour to another. */
function gradient(width: number, height: number, from: number[], to: number[]): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = x / (width - 1);
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = Math.round((from[c] as number) * (1 - t) + (to[c] as number) * t);
    }
  }
  return { data, width, height };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('the generated tiny CLIP model', () => {
  let root: string;
  let model: string;
  const sunset = gradient(64, 48, [250, 120, 30], [40, 20, 90]);
  const lawn = gradient(48, 64, [30, 160, 40], [200, 230, 120]);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'nimbus-tiny-clip-'));
    model = path.join(root, 'model');
    await writeTinyClip(model, { seed: 7, dims: DIMS });
  });
  afterEach(() => releaseClip());
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('writes exactly the files of the hub layout, with CLIP configuration and tokenizer', async () => {
    expect((await listFiles(model)).sort()).toEqual(HUB_LAYOUT);
    const config = JSON.parse(await readFile(path.join(model, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ model_type: 'clip', projection_dim: DIMS });
    const tokenizerConfig = JSON.parse(await readFile(path.join(model, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
    expect(tokenizerConfig).toMatchObject({ tokenizer_class: 'CLIPTokenizer', model_max_length: 77, pad_token: '<|endoftext|>' });
  });

  it('embeds images as unit vectors of the model size, the same image always alike and different images apart', async () => {
    const [a, b, again] = await clipImageEmbeddings(model, [sunset, lawn, sunset]);
    for (const v of [a, b, again]) {
      expect(v).toHaveLength(DIMS);
      expect(length(v as Float32Array)).toBeCloseTo(1, 5);
    }
    expect(again).toEqual(a);
    expect(cosine(a as Float32Array, b as Float32Array)).toBeLessThan(0.99);

    await releaseClip();
    const [reloaded] = await clipImageEmbeddings(model, [sunset]);
    expect(reloaded).toEqual(a);
  });

  it('embeds texts as unit vectors, different texts apart, each text alike whatever it is sent with', async () => {
    const [dog, sunsetText, long] = await clipTextEmbeddings(model, [
      'a photo of a dog at the beach',
      'Sunset over the sea',
      'word '.repeat(500),
    ]);
    for (const v of [dog, sunsetText, long]) {
      expect(v).toHaveLength(DIMS);
      expect(length(v as Float32Array)).toBeCloseTo(1, 5);
    }
    expect(cosine(dog as Float32Array, sunsetText as Float32Array)).toBeLessThan(0.99);
    const [alone] = await clipTextEmbeddings(model, ['Sunset over the sea']);
    expect(alone).toEqual(sunsetText);
    expect(await clipTextEmbeddings(model, [])).toEqual([]);
  });

  it('gives another vector for the same picture under another seed', async () => {
    const other = path.join(root, 'other');
    await writeTinyClip(other, { seed: 8, dims: DIMS });
    const [mine] = await clipImageEmbeddings(model, [sunset]);
    const [theirs] = await clipImageEmbeddings(other, [sunset]);
    expect(cosine(mine as Float32Array, theirs as Float32Array)).toBeLessThan(0.99);
  });

  it('embeds a real photo decoded for it', async () => {
    const photo = await readFile(path.join(import.meta.dirname, '../fixtures/vision/espresso.jpg'));
    const [v] = await clipImageEmbeddings(model, [await decodeForClip(photo)]);
    expect(length(v as Float32Array)).toBeCloseTo(1, 5);
  });

  it('rejects pixels that are not packed RGB', async () => {
    await expect(clipImageEmbeddings(model, [{ data: new Uint8Array(10), width: 4, height: 4 }])).rejects.toThrow(/not a packed RGB image/);
  });

  it('rejects a folder with a truncated ONNX file or a missing file, and loads it once repaired', async () => {
    const broken = path.join(root, 'broken');
    await writeTinyClip(broken, { seed: 7, dims: DIMS });
    const vision = path.join(broken, 'onnx/vision_model_quantized.onnx');
    const bytes = await readFile(vision);
    await truncate(vision, Math.floor(bytes.length / 2));
    // Callers that wait on the same load all get the explanation.
    const failed = /image–text model in .*broken could not be loaded/;
    await Promise.all([
      expect(clipImageEmbeddings(broken, [sunset])).rejects.toThrow(failed),
      expect(clipImageEmbeddings(broken, [lawn])).rejects.toThrow(failed),
    ]);

    const tokenizer = path.join(broken, 'tokenizer.json');
    const tokenizerBytes = await readFile(tokenizer);
    await unlink(tokenizer);
    await expect(clipTextEmbeddings(broken, ['a dog'])).rejects.toThrow(/lacks tokenizer\.json/);
    await expect(clipTextEmbeddings(path.join(root, 'nowhere'), ['a dog'])).rejects.toThrow(/lacks config\.json/);

    await writeFile(vision, bytes);
    await writeFile(tokenizer, tokenizerBytes);
    const [repaired] = await clipImageEmbeddings(broken, [sunset]);
    const [original] = await clipImageEmbeddings(model, [sunset]);
    expect(repaired).toEqual(original);

    // The hub's special_tokens_map.json repeats tokenizer_config.json: a folder without it loads.
    await unlink(path.join(broken, 'special_tokens_map.json'));
    expect(await clipTextEmbeddings(broken, ['a dog'])).toEqual(await clipTextEmbeddings(model, ['a dog']));
  });
});
