/** A tensor of an ONNX graph: an initializer (with its values) or a declared input or output. */
export interface OnnxTensor {
  readonly name: string;
  /** Sizes; a string is a dimension named at run time (an input's or output's only). */
  readonly dims: readonly (number | string)[];
  readonly type: 'float32' | 'int32' | 'int64';
}

export interface OnnxInitializer extends OnnxTensor {
  readonly dims: readonly number[];
  readonly values: Float32Array | Int32Array | BigInt64Array;
}

export interface OnnxNode {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  /** A whole number is an INT attribute, a list of them INTS: all the graphs here need. */
  readonly attributes?: Readonly<Record<string, number | readonly number[]>>;
}

export interface OnnxModel {
  /** The default domain's operator set the nodes are written for. */
  readonly opset: number;
  readonly inputs: readonly OnnxTensor[];
  readonly outputs: readonly OnnxTensor[];
  readonly initializers: readonly OnnxInitializer[];
  /** In an order where each node's inputs are made before it (ONNX asks for a topological order). */
  readonly nodes: readonly OnnxNode[];
}

/**
 * An ONNX model's bytes (the ModelProto of onnx.proto3), written here because nothing converts
 * a TensorFlow.js graph offline and the protobuf package would be a dependency for the
 * handful of message types a model needs: ModelProto, GraphProto, NodeProto, AttributeProto,
 * TensorProto (values as raw_data, little-endian, as ONNX asks), ValueInfoProto.
 *
 * Self-contained (no import, nothing from outside): use-lite-embedder.ts gives its source to the
 * model's thread. A message is a list of byte chunks and their length, so that the weights'
 * tens of megabytes are copied once, into the result.
 */
export function onnxModelBytes(model: OnnxModel): Uint8Array {
  interface Message {
    chunks: Uint8Array[];
    length: number;
  }
  const message = (): Message => ({ chunks: [], length: 0 });
  const push = (m: Message, bytes: Uint8Array) => {
    m.chunks.push(bytes);
    m.length += bytes.length;
  };
  const varint = (value: number | bigint): Uint8Array => {
    // A negative int64 is its 64-bit two's complement: ten bytes.
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    return Uint8Array.from(out);
  };
  const key = (field: number, wire: number) => varint(field * 8 + wire);
  const int = (m: Message, field: number, value: number) => {
    push(m, key(field, 0));
    push(m, varint(value));
  };
  const bytes = (m: Message, field: number, value: Uint8Array) => {
    push(m, key(field, 2));
    push(m, varint(value.length));
    push(m, value);
  };
  const text = (m: Message, field: number, value: string) => bytes(m, field, new TextEncoder().encode(value));
  const nested = (m: Message, field: number, inner: Message) => {
    push(m, key(field, 2));
    push(m, varint(inner.length));
    for (const chunk of inner.chunks) push(m, chunk);
  };
  const elementType = { float32: 1, int32: 6, int64: 7 } as const;

  const tensor = (t: OnnxInitializer): Message => {
    const m = message();
    for (const d of t.dims) int(m, 1, d);
    int(m, 2, elementType[t.type]);
    text(m, 8, t.name);
    // raw_data is little-endian; so are the typed arrays on every machine Node runs on here.
    bytes(m, 9, new Uint8Array(t.values.buffer, t.values.byteOffset, t.values.byteLength));
    return m;
  };
  const valueInfo = (t: OnnxTensor): Message => {
    const shape = message();
    for (const d of t.dims) {
      const dim = message();
      if (typeof d === 'number') int(dim, 1, d);
      else text(dim, 2, d);
      nested(shape, 1, dim);
    }
    const tensorType = message();
    int(tensorType, 1, elementType[t.type]);
    nested(tensorType, 2, shape);
    const type = message();
    nested(type, 1, tensorType);
    const m = message();
    text(m, 1, t.name);
    nested(m, 2, type);
    return m;
  };
  const node = (n: OnnxNode, index: number): Message => {
    const m = message();
    for (const input of n.inputs) text(m, 1, input);
    for (const output of n.outputs) text(m, 2, output);
    text(m, 3, `${n.op}_${index}`);
    text(m, 4, n.op);
    for (const [name, value] of Object.entries(n.attributes ?? {})) {
      const a = message();
      text(a, 1, name);
      if (typeof value === 'number') {
        int(a, 3, value);
        int(a, 20, 2); // AttributeType INT
      } else {
        for (const v of value) int(a, 8, v);
        int(a, 20, 7); // INTS
      }
      nested(m, 5, a);
    }
    return m;
  };

  const graph = message();
  model.nodes.forEach((n, i) => nested(graph, 1, node(n, i)));
  text(graph, 2, 'main');
  for (const t of model.initializers) nested(graph, 5, tensor(t));
  for (const t of model.inputs) nested(graph, 11, valueInfo(t));
  for (const t of model.outputs) nested(graph, 12, valueInfo(t));

  const opset = message();
  text(opset, 1, '');
  int(opset, 2, model.opset);
  const top = message();
  int(top, 1, 8); // IR version 8: what opsets 13–17 are written in
  text(top, 2, 'engram');
  nested(top, 7, graph);
  nested(top, 8, opset);

  const out = new Uint8Array(top.length);
  let at = 0;
  for (const chunk of top.chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
