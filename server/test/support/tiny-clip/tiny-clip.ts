import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GraphBuilder, seededRandom } from './graph-builder.js';
import { DataType, encodeModel, type Graph } from './onnx-proto.js';
import { tokenizerFiles } from './tokenizer-files.js';

/**
 * CLIP in miniature with random weights: a ViT image tower and a causal text transformer (one
 * encoder layer each, unless a shape says otherwise), exported like the hub's q8 ONNX files, so
 * loading, preprocessing, tokenising and inference run for real without the real model's 150 MB.
 */
const MAX_TEXT = 77;
const MODEL_OPTIONS = { opset: 17, irVersion: 8, producer: 'nimbus-tiny-clip' };
const BATCH = 'batch_size';

/** The sizes of the two towers. */
export interface ClipShape {
  imageSize: number;
  patchSize: number;
  visionHidden: number;
  visionHeads: number;
  textHidden: number;
  textHeads: number;
  layers: number;
}

const TINY: ClipShape = { imageSize: 32, patchSize: 8, visionHidden: 32, visionHeads: 2, textHidden: 32, textHeads: 2, layers: 1 };

/** The sizes of openai/clip-vit-base-patch32: with random weights it costs what the real model costs. */
export const VIT_B_32_SHAPE: ClipShape = {
  imageSize: 224,
  patchSize: 32,
  visionHidden: 768,
  visionHeads: 12,
  textHidden: 512,
  textHeads: 8,
  layers: 12,
};

export interface TinyClipOptions {
  /** Another seed gives another model (other weights, so other vectors). */
  seed?: number;
  /** Length of the image and text embeddings. */
  dims?: number;
  /** The towers' sizes: tiny unless told. */
  shape?: ClipShape;
}

/** `layers` encoder layers over [batch, tokens, hidden]. */
function encoder(g: GraphBuilder, x: string, layers: number, hidden: number, heads: number, mask?: string): string {
  let out = x;
  for (let i = 0; i < layers; i++) out = g.encoderLayer(out, hidden, heads, mask);
  return out;
}

function visionGraph(random: () => number, dims: number, shape: ClipShape): Graph {
  const { imageSize, patchSize, visionHidden: hidden, visionHeads: heads, layers } = shape;
  const patchCount = (imageSize / patchSize) ** 2;
  const g = new GraphBuilder(random);
  const patchWeights = g.randomFloats('patch_embedding', [hidden, 3, patchSize, patchSize], 1 / Math.sqrt(3 * patchSize ** 2));
  const conv = g.op1('Conv', ['pixel_values', patchWeights], {
    kernel_shape: { ints: [patchSize, patchSize] },
    strides: { ints: [patchSize, patchSize] },
  });
  const patches = g.op1('Transpose', [g.op1('Reshape', [conv, g.int64s('patch_shape', [3], [0, hidden, -1])])], {
    perm: { ints: [0, 2, 1] },
  });
  // The class token, one per image of the batch: the first patch times zero, plus the token.
  const first = g.op1('Slice', [patches, g.int64s('starts', [1], [0]), g.int64s('ends', [1], [1]), g.int64s('axes', [1], [1])]);
  const classToken = g.op1('Add', [g.op1('Mul', [first, g.floats('zero', [], [0])]), g.randomFloats('class_embedding', [hidden], 1)]);
  const tokens = g.op1('Concat', [classToken, patches], { axis: { i: 1 } });
  const embedded = g.op1('Add', [tokens, g.randomFloats('position_embedding', [patchCount + 1, hidden], 0.5)]);
  const encoded = encoder(g, g.layerNorm(embedded, hidden), layers, hidden, heads);
  g.output(encoded, 'last_hidden_state');
  const pooled = g.layerNorm(g.op1('Gather', [encoded, g.int64s('class_index', [], [0])], { axis: { i: 1 } }), hidden);
  g.output(g.linear(pooled, hidden, dims, false), 'image_embeds');
  return g.graph(
    'clip_vision_with_projection',
    [{ name: 'pixel_values', dataType: DataType.FLOAT, shape: [BATCH, 3, imageSize, imageSize] }],
    [
      { name: 'image_embeds', dataType: DataType.FLOAT, shape: [BATCH, dims] },
      { name: 'last_hidden_state', dataType: DataType.FLOAT, shape: [BATCH, patchCount + 1, hidden] },
    ],
  );
}

function causalMask(size: number): number[] {
  return Array.from({ length: size * size }, (_, i) => (i % size > Math.floor(i / size) ? -1e4 : 0));
}

function textGraph(random: () => number, dims: number, vocabSize: number, shape: ClipShape): Graph {
  const { textHidden: hidden, textHeads: heads, layers } = shape;
  const g = new GraphBuilder(random);
  const tokens = g.op1('Gather', [g.randomFloats('token_embedding', [vocabSize, hidden], 1), 'input_ids'], { axis: { i: 0 } });
  const length = g.op1('Shape', ['input_ids'], { start: { i: 1 }, end: { i: 2 } });
  const positions = g.op1('Slice', [
    g.randomFloats('position_embedding', [MAX_TEXT, hidden], 0.5),
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
  const encoded = encoder(g, g.op1('Add', [tokens, positions]), layers, hidden, heads, mask);
  const final = g.layerNorm(encoded, hidden);
  g.output(final, 'last_hidden_state');
  // CLIP reads the text at its end token, the one with the highest id.
  const end = g.op1('ArgMax', ['input_ids'], { axis: { i: 1 }, keepdims: { i: 1 } });
  const pooled = g.op1('GatherND', [final, end], { batch_dims: { i: 1 } });
  g.output(g.linear(pooled, hidden, dims, false), 'text_embeds');
  return g.graph(
    'clip_text_with_projection',
    [{ name: 'input_ids', dataType: DataType.INT64, shape: [BATCH, 'sequence_length'] }],
    [
      { name: 'text_embeds', dataType: DataType.FLOAT, shape: [BATCH, dims] },
      { name: 'last_hidden_state', dataType: DataType.FLOAT, shape: [BATCH, 'sequence_length', hidden] },
    ],
  );
}

function configs(dims: number, shape: ClipShape, tokens: { vocabSize: number; startId: number; endId: number }) {
  const tower = (hidden: number, heads: number) => ({
    hidden_size: hidden,
    intermediate_size: hidden * 4,
    num_attention_heads: heads,
    num_hidden_layers: shape.layers,
    hidden_act: 'quick_gelu',
    layer_norm_eps: 1e-5,
    projection_dim: dims,
  });
  return {
    'config.json': {
      architectures: ['CLIPModel'],
      model_type: 'clip',
      projection_dim: dims,
      logit_scale_init_value: 2.6592,
      text_config: {
        ...tower(shape.textHidden, shape.textHeads),
        model_type: 'clip_text_model',
        max_position_embeddings: MAX_TEXT,
        vocab_size: tokens.vocabSize,
        bos_token_id: tokens.startId,
        eos_token_id: tokens.endId,
        pad_token_id: tokens.endId,
      },
      vision_config: {
        ...tower(shape.visionHidden, shape.visionHeads),
        model_type: 'clip_vision_model',
        image_size: shape.imageSize,
        patch_size: shape.patchSize,
        num_channels: 3,
      },
    },
    'preprocessor_config.json': {
      crop_size: { height: shape.imageSize, width: shape.imageSize },
      do_center_crop: true,
      do_convert_rgb: true,
      do_normalize: true,
      do_rescale: true,
      do_resize: true,
      image_mean: [0.48145466, 0.4578275, 0.40821073],
      image_std: [0.26862954, 0.26130258, 0.27577711],
      feature_extractor_type: 'CLIPFeatureExtractor',
      image_processor_type: 'CLIPImageProcessor',
      resample: 3,
      rescale_factor: 1 / 255,
      size: { shortest_edge: shape.imageSize },
    },
  };
}

/** Writes a complete model folder laid out as the hub's (config, preprocessing, tokenizer, onnx/). */
export async function writeTinyClip(dir: string, options: TinyClipOptions = {}): Promise<void> {
  const seed = options.seed ?? 1;
  const dims = options.dims ?? 32;
  const shape = options.shape ?? TINY;
  const tokenizer = tokenizerFiles(MAX_TEXT);
  const json = {
    ...configs(dims, shape, tokenizer),
    'tokenizer.json': tokenizer['tokenizer.json'],
    'tokenizer_config.json': tokenizer['tokenizer_config.json'],
    'special_tokens_map.json': tokenizer['special_tokens_map.json'],
  };
  // One generator per tower, so changing one tower's layout leaves the other's weights alone.
  const vision = encodeModel(visionGraph(seededRandom(seed * 2 + 1), dims, shape), MODEL_OPTIONS);
  const text = encodeModel(textGraph(seededRandom(seed * 2 + 2), dims, tokenizer.vocabSize, shape), MODEL_OPTIONS);

  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  await Promise.all([
    ...Object.entries(json).map(([name, value]) => writeFile(path.join(dir, name), `${JSON.stringify(value, null, 2)}\n`)),
    writeFile(path.join(dir, 'onnx', 'vision_model_quantized.onnx'), vision),
    writeFile(path.join(dir, 'onnx', 'text_model_quantized.onnx'), text),
  ]);
}
