/** One file of a model, as the hub's repository lays it out. */
export interface ModelFileNeed {
  path: string;
  /** Fetched when the repository has it; its absence does not make the model incomplete. */
  optional: boolean;
}

/**
 * What a CLIP-family model needs to embed images and texts on the CPU: its configuration, the image
 * preprocessing and tokenizer settings, and the two int8 ONNX towers. Only these are fetched: the
 * repositories also hold full-precision and fp16 copies of the weights, many times larger.
 */
export const CLIP_MODEL_FILES: readonly ModelFileNeed[] = [
  { path: 'config.json', optional: false },
  { path: 'preprocessor_config.json', optional: false },
  { path: 'tokenizer.json', optional: false },
  { path: 'tokenizer_config.json', optional: false },
  { path: 'special_tokens_map.json', optional: true },
  { path: 'onnx/vision_model_quantized.onnx', optional: false },
  { path: 'onnx/text_model_quantized.onnx', optional: false },
];

/** Written last into the model's folder: its presence says the folder is complete and was verified. */
export const MANIFEST_FILE = 'nimbus-model.json';

export interface ModelManifest {
  repo: string;
  revision: string;
  files: { path: string; size: number; sha256: string }[];
  /** ISO date of the download. */
  fetchedAt: string;
}
