import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GraphBuilder, seededRandom } from './graph-builder.js';
import { DataType, encodeModel, type Graph } from './onnx-proto.js';
import { tokenizerFiles } from './tokenizer-files.js';

/**
 * CLIP in miniature with random weights: a ViT image tower and a causal text transformer with one
 * encoder layer each, exported like the hub's ONNX files, so loading, preprocessing, tokenising
 * and inference run for real without the real model's 150 MB.
 */
const IMAGE_SIZE = 32;
const PATCH_SIZE = 8;
const HIDDEN = 32;
const HEADS = 2;
const MAX_TEXT = 77;
const PATCHES = (IMAGE_SIZE / PATCH_SIZE) ** 2;

const MODEL_OPTIONS = { opset: 17, irVersion: 8, producer: 'nimbus-tiny-clip' };
const BATCH = 'batch_size';

export interface TinyClipOptions {
  /** Another seed gives another model (other weights, so other vectors). */
  seed?: number;
  /** Length of the image and text embeddings. */
  dims?: number;
}

function visionGraph(random: () => number, dims: number): Graph {
  const g = new GraphBuilder(random);
  const patchWeights = g.randomFloats('patch_embedding', [HIDDEN, 3, PATCH_SIZE, PATCH_SIZE], 1 / Math.sqrt(3 * PATCH_SIZE ** 2));
  const conv = g.op1('Conv', ['pixel_values', patchWeights], {
    kernel_shape: { ints: [PATCH_SIZE, PATCH_SIZE] },
    strides: { ints: [PATCH_SIZE, PATCH_SIZE] },
  });
  const patches = g.op1('Transpose', [g.op1('Reshape', [conv, g.int64s('patch_shape', [3], [0, HIDDEN, -1])])], {
    perm: { ints: [0, 2, 1] },
  });
  // The class token, one per image of the batch: the first patch times zero, plus the token.
  const first = g.op1('Slice', [patches, g.int64s('starts', [1], [0]), g.int64s('ends', [1], [1]), g.int64s('axes', [1], [1])]);
  const classToken = g.op1('Add', [g.op1('Mul', [first, g.floats('zero', [], [0])]), g.randomFloats('class_embedding', [HIDDEN], 1)]);
  const tokens = g.op1('Concat', [classToken, patches], { axis: { i: 1 } });
  const embedded = g.op1('Add', [tokens, g.randomFloats('position_embedding', [PATCHES + 1, HIDDEN], 0.5)]);
  const encoded = g.encoderLayer(g.layerNorm(embedded, HIDDEN), HIDDEN, HEADS);
  g.output(encoded, 'last_hidden_state');
  const pooled = g.layerNorm(g.op1('Gather', [encoded, g.int64s('class_index', [], [0])], { axis: { i: 1 } }), HIDDEN);
  g.output(g.linear(pooled, HIDDEN, dims, false), 'image_embeds');
  return g.graph(
    'clip_vision_with_projection',
    [{ name: 'pixel_values', dataType: DataType.FLOAT, shape: [BATCH, 3, IMAGE_SIZE, IMAGE_SIZE] }],
    [
      { name: 'image_embeds', dataType: DataType.FLOAT, shape: [BATCH, dims] },
      { name: 'last_hidden_state', dataType: DataType.FLOAT, shape: [BATCH, PATCHES + 1, HIDDEN] },
    ],
  );
}

function causalMask(size: number): number[] {
  return Array.from({ length: size * size }, (_, i) => (i % size > Math.floor(i / size) ? -1e4 : 0));
}

function textGraph(random: () => number, dims: number, vocabSize: number): Graph {
  const g = new GraphBuilder(random);
  const tokens = g.op1('Gather', [g.randomFloats('token_embedding', [vocabSize, HIDDEN], 1), 'input_ids'], { axis: { i: 0 } });
  const length = g.op1('Shape', ['input_ids'], { start: { i: 1 }, end: { i: 2 } });
  const positions = g.op1('Slice', [
    g.randomFloats('position_embedding', [MAX_TEXT, HIDDEN], 0.5),
    g.int64s('starts', [1], [0]),
    length,
    g.int64s('axes', [1], [0]),
  ]);
  const mask = g.op1('Slice', [
    g.floats('causal_mask', [MAX_TEXT, MAX_TEXT], causalMask(MAX_TEXT)),
    g.int64s('starts', [2], [0, 0]),
    g.op1('Concat', [length, length], { axis: { i: 0 } }),
    g.int64s('axes', [2], [0, 1]),
  ]);
  const encoded = g.encoderLayer(g.op1('Add', [tokens, positions]), HIDDEN, HEADS, mask);
  const final = g.layerNorm(encoded, HIDDEN);
  g.output(final, 'last_hidden_state');
  // CLIP reads the text at its end token, the one with the highest id.
  const end = g.op1('ArgMax', ['input_ids'], { axis: { i: 1 }, keepdims: { i: 1 } });
  const pooled = g.op1('GatherND', [final, end], { batch_dims: { i: 1 } });
  g.output(g.linear(pooled, HIDDEN, dims, false), 'text_embeds');
  return g.graph(
    'clip_text_with_projection',
    [{ name: 'input_ids', dataType: DataType.INT64, shape: [BATCH, 'sequence_length'] }],
    [
      { name: 'text_embeds', dataType: DataType.FLOAT, shape: [BATCH, dims] },
      { name: 'last_hidden_state', dataType: DataType.FLOAT, shape: [BATCH, 'sequence_length', HIDDEN] },
    ],
  );
}

function configs(dims: number, vocabSize: number, startId: number, endId: number) {
  const common = {
    hidden_size: HIDDEN,
    intermediate_size: HIDDEN * 4,
    num_attention_heads: HEADS,
    num_hidden_layers: 1,
    hidden_act: 'quick_gelu',
    layer_norm_eps: 1e-5,
    projection_dim: dims,
  };
  const mean = [0.48145466, 0.4578275, 0.40821073];
  const std = [0.26862954, 0.26130258, 0.27577711];
  return {
    'config.json': {
      architectures: ['CLIPModel'],
      model_type: 'clip',
      projection_dim: dims,
      logit_scale_init_value: 2.6592,
      text_config: {
        ...common,
        model_type: 'clip_text_model',
        max_position_embeddings: MAX_TEXT,
        vocab_size: vocabSize,
        bos_token_id: startId,
        eos_token_id: endId,
        pad_token_id: endId,
      },
      vision_config: { ...common, model_type: 'clip_vision_model', image_size: IMAGE_SIZE, patch_size: PATCH_SIZE, num_channels: 3 },
    },
    'preprocessor_config.json': {
      crop_size: { height: IMAGE_SIZE, width: IMAGE_SIZE },
      do_center_crop: true,
      do_convert_rgb: true,
      do_normalize: true,
      do_rescale: true,
      do_resize: true,
      image_mean: mean,
      image_std: std,
      image_processor_type: 'CLIPImageProcessor',
      resample: 3,
      rescale_factor: 1 / 255,
      size: { shortest_edge: IMAGE_SIZE },
    },
  };
}

/** Writes a complete model folder laid out as the hub's (config, preprocessing, tokenizer, onnx/). */
export async function writeTinyClip(dir: string, options: TinyClipOptions = {}): Promise<void> {
  const seed = options.seed ?? 1;
  const dims = options.dims ?? 32;
  const tokenizer = tokenizerFiles(MAX_TEXT);
  const json = {
    ...configs(dims, tokenizer.vocabSize, tokenizer.startId, tokenizer.endId),
    'tokenizer.json': tokenizer['tokenizer.json'],
    'tokenizer_config.json': tokenizer['tokenizer_config.json'],
    'special_tokens_map.json': tokenizer['special_tokens_map.json'],
  };
  // One generator per tower, so changing one tower's layout leaves the other's weights alone.
  const vision = encodeModel(visionGraph(seededRandom(seed * 2 + 1), dims), MODEL_OPTIONS);
  const text = encodeModel(textGraph(seededRandom(seed * 2 + 2), dims, tokenizer.vocabSize), MODEL_OPTIONS);

  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  await Promise.all([
    ...Object.entries(json).map(([name, value]) => writeFile(path.join(dir, name), `${JSON.stringify(value, null, 2)}\n`)),
    writeFile(path.join(dir, 'onnx', 'vision_model_quantized.onnx'), vision),
    writeFile(path.join(dir, 'onnx', 'text_model_quantized.onnx'), text),
  ]);
}
