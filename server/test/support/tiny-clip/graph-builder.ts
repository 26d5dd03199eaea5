import { DataType, type Attribute, type Graph, type Node, type Tensor, type ValueInfo } from './onnx-proto.js';

/** A seeded generator of uniform numbers in [0, 1) (mulberry32): one seed, one model. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function bytesOf(array: Float32Array | BigInt64Array | Uint8Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * Builds an inference graph node by node, the layers written the way the exporters of CLIP write
 * them (linear layers dynamically quantised to uint8 as in a "q8" file).
 */
export class GraphBuilder {
  private readonly nodes: Node[] = [];
  private readonly initializers: Tensor[] = [];
  private count = 0;

  constructor(private readonly random: () => number) {}

  /** A fresh value name. */
  private name(hint: string): string {
    this.count += 1;
    return `${hint}_${this.count}`;
  }

  op(opType: string, inputs: string[], attributes?: Record<string, Attribute>, outputs = 1): string[] {
    const names = Array.from({ length: outputs }, () => this.name(opType.toLowerCase()));
    this.nodes.push({ opType, inputs, outputs: names, attributes });
    return names;
  }

  /** The single output of a node. */
  op1(opType: string, inputs: string[], attributes?: Record<string, Attribute>): string {
    return this.op(opType, inputs, attributes)[0] as string;
  }

  floats(hint: string, dims: number[], values: ArrayLike<number>): string {
    const name = this.name(hint);
    this.initializers.push({ name, dataType: DataType.FLOAT, dims, raw: bytesOf(Float32Array.from(values)) });
    return name;
  }

  int64s(hint: string, dims: number[], values: number[]): string {
    const name = this.name(hint);
    const data = BigInt64Array.from(values.map((v) => BigInt(v)));
    this.initializers.push({ name, dataType: DataType.INT64, dims, raw: bytesOf(data) });
    return name;
  }

  /** Uniform weights with the given standard deviation (around `centre`). */
  randomFloats(hint: string, dims: number[], std: number, centre = 0): string {
    const size = dims.reduce((a, b) => a * b, 1);
    const half = std * Math.sqrt(3);
    return this.floats(
      hint,
      dims,
      Array.from({ length: size }, () => centre + (this.random() * 2 - 1) * half),
    );
  }

  /**
   * x·W + b with W stored as uint8 and x quantised on the fly: the DynamicQuantizeLinear →
   * MatMulInteger → rescale pattern that onnxruntime's dynamic quantisation writes.
   */
  linear(x: string, inDim: number, outDim: number, bias = true): string {
    const weights = new Uint8Array(inDim * outDim);
    for (let i = 0; i < weights.length; i++) weights[i] = Math.floor(this.random() * 256);
    const w = this.name('w_quantized');
    this.initializers.push({ name: w, dataType: DataType.UINT8, dims: [inDim, outDim], raw: weights });
    const wZero = this.name('w_zero_point');
    this.initializers.push({ name: wZero, dataType: DataType.UINT8, dims: [], raw: Uint8Array.of(128) });
    // Uniform over ±128 steps: this scale gives the weights a standard deviation of 1/√inDim.
    const wScale = this.floats('w_scale', [], [Math.sqrt(3) / (128 * Math.sqrt(inDim))]);

    const [xq, xScale, xZero] = this.op('DynamicQuantizeLinear', [x], undefined, 3) as [string, string, string];
    const product = this.op1('MatMulInteger', [xq, w, xZero, wZero]);
    const asFloat = this.op1('Cast', [product], { to: { i: DataType.FLOAT } });
    const scale = this.op1('Mul', [xScale, wScale]);
    const y = this.op1('Mul', [asFloat, scale]);
    return bias ? this.op1('Add', [y, this.randomFloats('bias', [outDim], 0.02)]) : y;
  }

  layerNorm(x: string, dim: number): string {
    const gamma = this.randomFloats('ln_weight', [dim], 0.05, 1);
    const beta = this.randomFloats('ln_bias', [dim], 0.05);
    return this.op1('LayerNormalization', [x, gamma, beta], { axis: { i: -1 }, epsilon: { f: 1e-5 } });
  }

  /** Multi-head self-attention over [batch, tokens, hidden]; `mask` is added to the scores. */
  selfAttention(x: string, hidden: number, heads: number, mask?: string): string {
    const headDim = hidden / heads;
    const split = this.int64s('heads_shape', [4], [0, 0, heads, headDim]);
    const perHead = (v: string, perm: number[]) => this.op1('Transpose', [this.op1('Reshape', [v, split])], { perm: { ints: perm } });
    const q = perHead(this.linear(x, hidden, hidden), [0, 2, 1, 3]);
    const k = perHead(this.linear(x, hidden, hidden), [0, 2, 3, 1]);
    const v = perHead(this.linear(x, hidden, hidden), [0, 2, 1, 3]);
    let scores = this.op1('Mul', [this.op1('MatMul', [q, k]), this.floats('attention_scale', [], [1 / Math.sqrt(headDim)])]);
    if (mask) scores = this.op1('Add', [scores, mask]);
    const weights = this.op1('Softmax', [scores], { axis: { i: -1 } });
    const merged = this.op1('Transpose', [this.op1('MatMul', [weights, v])], { perm: { ints: [0, 2, 1, 3] } });
    const joined = this.op1('Reshape', [merged, this.int64s('hidden_shape', [3], [0, 0, hidden])]);
    return this.linear(joined, hidden, hidden);
  }

  /** CLIP's encoder layer: pre-norm attention and a quick-GELU MLP, each with a residual. */
  encoderLayer(x: string, hidden: number, heads: number, mask?: string): string {
    const attended = this.op1('Add', [x, this.selfAttention(this.layerNorm(x, hidden), hidden, heads, mask)]);
    const up = this.linear(this.layerNorm(attended, hidden), hidden, hidden * 4);
    const gelu = this.op1('Mul', [up, this.op1('Sigmoid', [this.op1('Mul', [up, this.floats('gelu_factor', [], [1.702])])])]);
    return this.op1('Add', [attended, this.linear(gelu, hidden * 4, hidden)]);
  }

  /** Gives a value its graph-output name. */
  output(value: string, name: string): void {
    this.nodes.push({ opType: 'Identity', inputs: [value], outputs: [name] });
  }

  graph(name: string, inputs: ValueInfo[], outputs: ValueInfo[]): Graph {
    return { name, nodes: this.nodes, initializers: this.initializers, inputs, outputs };
  }
}
