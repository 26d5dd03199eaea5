import protobuf from 'protobufjs';

/**
 * The part of onnx/onnx.proto (proto2, package onnx) that a model made of plain tensors and nodes
 * needs, with the field numbers of the real schema, so onnxruntime reads what this writes.
 */
const unpacked = { packed: false };
const schema = {
  nested: {
    onnx: {
      nested: {
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            floats: { rule: 'repeated', type: 'float', id: 7, options: unpacked },
            ints: { rule: 'repeated', type: 'int64', id: 8, options: unpacked },
            type: { type: 'int32', id: 20 },
          },
        },
        ValueInfoProto: {
          fields: {
            name: { type: 'string', id: 1 },
            type: { type: 'TypeProto', id: 2 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            op_type: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            domain: { type: 'string', id: 7 },
          },
        },
        ModelProto: {
          fields: {
            ir_version: { type: 'int64', id: 1 },
            producer_name: { type: 'string', id: 2 },
            producer_version: { type: 'string', id: 3 },
            graph: { type: 'GraphProto', id: 7 },
            opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1, options: unpacked },
            data_type: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            raw_data: { type: 'bytes', id: 9 },
          },
        },
        TensorShapeProto: {
          fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ['dim_value', 'dim_param'] } },
              fields: {
                dim_value: { type: 'int64', id: 1 },
                dim_param: { type: 'string', id: 2 },
              },
            },
          },
        },
        TypeProto: {
          oneofs: { value: { oneof: ['tensor_type'] } },
          fields: { tensor_type: { type: 'Tensor', id: 1 } },
          nested: {
            Tensor: {
              fields: {
                elem_type: { type: 'int32', id: 1 },
                shape: { type: 'TensorShapeProto', id: 2 },
              },
            },
          },
        },
        OperatorSetIdProto: {
          fields: {
            domain: { type: 'string', id: 1 },
            version: { type: 'int64', id: 2 },
          },
        },
      },
    },
  },
};

const ModelProto = protobuf.Root.fromJSON(schema).lookupType('onnx.ModelProto');

/** TensorProto.DataType values. */
export const DataType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7 } as const;
type DataTypeCode = (typeof DataType)[keyof typeof DataType];

/** AttributeProto.AttributeType values. */
const AttributeType = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7 } as const;

export interface Tensor {
  name: string;
  dataType: DataTypeCode;
  dims: number[];
  /** Little-endian elements, row-major. */
  raw: Uint8Array;
}

/** One attribute value; the key says its ONNX type. */
export type Attribute = { f: number } | { i: number } | { s: string } | { t: Tensor } | { floats: number[] } | { ints: number[] };

export interface Node {
  opType: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, Attribute>;
}

/** A graph input or output: its element type and its dimensions (a name for a free one). */
export interface ValueInfo {
  name: string;
  dataType: DataTypeCode;
  shape: (number | string)[];
}

export interface Graph {
  name: string;
  nodes: Node[];
  initializers: Tensor[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

export interface ModelOptions {
  opset: number;
  irVersion: number;
  producer: string;
}

function tensorProto(t: Tensor) {
  return { name: t.name, data_type: t.dataType, dims: t.dims, raw_data: t.raw };
}

function attributeProto(name: string, a: Attribute) {
  if ('f' in a) return { name, type: AttributeType.FLOAT, f: a.f };
  if ('i' in a) return { name, type: AttributeType.INT, i: a.i };
  if ('s' in a) return { name, type: AttributeType.STRING, s: new TextEncoder().encode(a.s) };
  if ('t' in a) return { name, type: AttributeType.TENSOR, t: tensorProto(a.t) };
  if ('floats' in a) return { name, type: AttributeType.FLOATS, floats: a.floats };
  return { name, type: AttributeType.INTS, ints: a.ints };
}

function valueInfoProto(v: ValueInfo) {
  const dim = v.shape.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d }));
  return { name: v.name, type: { tensor_type: { elem_type: v.dataType, shape: { dim } } } };
}

/** The serialised ModelProto (the bytes of an .onnx file). */
export function encodeModel(graph: Graph, options: ModelOptions): Uint8Array {
  const model = {
    ir_version: options.irVersion,
    producer_name: options.producer,
    opset_import: [{ domain: '', version: options.opset }],
    graph: {
      name: graph.name,
      node: graph.nodes.map((n, index) => ({
        name: `${n.opType}_${index}`,
        op_type: n.opType,
        input: n.inputs,
        output: n.outputs,
        attribute: Object.entries(n.attributes ?? {}).map(([name, a]) => attributeProto(name, a)),
      })),
      initializer: graph.initializers.map(tensorProto),
      input: graph.inputs.map(valueInfoProto),
      output: graph.outputs.map(valueInfoProto),
    },
  };
  const message = ModelProto.fromObject(model);
  return ModelProto.encode(message).finish();
}
