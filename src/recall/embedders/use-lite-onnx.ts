import type { OnnxInitializer, OnnxModel, OnnxNode } from './onnx-model-bytes.js';

/** A weight of the loaded TensorFlow.js graph model, as far as useLiteOnnx reads one. */
export interface WeightTensor {
  readonly shape: number[];
  dataSync(): ArrayLike<number>;
}

/**
 * USE Lite's forward pass (use-lite-forward.ts) as an ONNX graph, for onnxruntime's native CPU
 * kernels: the same operations in the same order, over the same weights (read from the package's
 * files: use-lite-weights.ts), so the vectors are the graph's within a float's rounding (the
 * test compares them: test/use-lite-forward.test.ts). Input `ids`: int32 [n], a text's SentencePiece
 * ids, already clipped to the first 128 (ClipToMaxLength, done by the caller); output `vector`:
 * float32 [1, 512], unit length.
 *
 * The quirks kept: the token embedding added twice (lookup + (lookup + timing signal)); layer
 * norm as scale · 1/√(var + ε), times x − mean, plus bias; the mean over tokens as a sum divided
 * by n; L2 normalisation as x · 1/√max(Σx², floor).
 *
 * Self-contained (no import at run time, nothing from outside): use-lite-embedder.ts gives its
 * source to the model's process.
 */
export function useLiteOnnx(weights: Record<string, WeightTensor[] | undefined>): OnnxModel {
  const initializers: OnnxInitializer[] = [];
  const nodes: OnnxNode[] = [];
  let made = 0;
  const op = (type: string, inputs: string[], attributes?: Record<string, number | number[]>): string => {
    const output = `t${made++}`;
    nodes.push({ op: type, inputs, outputs: [output], attributes });
    return output;
  };
  const weight = (name: string, dims?: number[]): string => {
    const found = weights[name]?.[0];
    if (!found) throw new Error(`USE Lite's graph has no weight ${name}`);
    const own = `w${initializers.length}`;
    const values = found.dataSync();
    initializers.push({ name: own, type: 'float32', dims: dims ?? found.shape, values: values instanceof Float32Array ? values : Float32Array.from(values) });
    return own;
  };
  const constant = (type: 'float32' | 'int64', values: number[], dims: number[]): string => {
    const own = `c${initializers.length}`;
    initializers.push({ name: own, type, dims, values: type === 'int64' ? BigInt64Array.from(values.map(BigInt)) : Float32Array.from(values) });
    return own;
  };

  const encoder = 'module_apply_default/Encoder_en/KonaTransformer/Encode/';
  const heads = 4;
  const layers = [0, 1].map((i) => {
    const own = `${encoder}Layer_${i}/TransformerLayer/`;
    const stack = `${encoder}TransformerStack/Layer_${i}/TransformerLayer/`;
    const width = i === 0 ? 256 : 512;
    // The attention's transforms are 1×1 convolutions in the graph: the same products as a matrix.
    const kernel = (name: string, out: number) => weight(`module/Encoder_en/KonaTransformer/Encode/Layer_${i}/TransformerLayer/MultiheadAttention/${name}/kernel/part_0`, [width, out]);
    return {
      width,
      normScale: weight(`${own}layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`),
      normBias: weight(`${own}layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`),
      qkv: kernel('qkv_transform_single', 3 * width),
      qkvBias: weight(`${own}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`),
      out: kernel('output_transform_single', 512),
      outBias: weight(`${own}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`),
      queryScale: weight(`${stack}MultiheadAttention/mul/y`),
      ffnNormScale: weight(`${own}FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`),
      ffnNormBias: weight(`${own}FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`),
      conv1: weight(`${stack}FFN/conv1/Tensordot/Reshape_1`),
      conv1Bias: weight(`${own}FFN/conv1/bias/ConcatPartitions/concat`),
      conv2: weight(`${stack}FFN/conv2/Tensordot/Reshape_1`),
      conv2Bias: weight(`${own}FFN/conv2/bias/ConcatPartitions/concat`),
    };
  });
  const embeddings = weight('module/Embeddings_en');
  const timescales = weight(`${encoder}TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`);
  const residual = weight(`${encoder}Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat`);
  const residualBias = weight(`${encoder}Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat`);
  const epsilon = weight(`${encoder}TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`);
  const tanhWeights = weight('module/Encoder_en/hidden_layers/tanh_layer_0/weights');
  const tanhBias = weight('module/Encoder_en/hidden_layers/tanh_layer_0/bias');
  const normFloor = weight('module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y');

  // 1/√x as TensorFlow.js's WASM kernel computes rsqrt.
  const rsqrt = (x: string) => op('Reciprocal', [op('Sqrt', [x])]);
  const layerNorm = (x: string, scale: string, bias: string): string => {
    const centred = op('Sub', [x, op('ReduceMean', [x], { axes: [-1], keepdims: 1 })]);
    const variance = op('ReduceMean', [op('Mul', [centred, centred])], { axes: [-1], keepdims: 1 });
    return op('Add', [op('Mul', [op('Mul', [scale, rsqrt(op('Add', [variance, epsilon]))]), centred]), bias]);
  };
  const attention = (x: string, layer: (typeof layers)[number]): string => {
    const qkv = op('Add', [op('MatMul', [x, layer.qkv]), layer.qkvBias]);
    const [q, k, v] = ['q', 'k', 'v'].map((part) => `${qkv}${part}`) as [string, string, string];
    nodes.push({ op: 'Split', inputs: [qkv], outputs: [q, k, v], attributes: { axis: 1 } });
    const width = layer.width / heads;
    const toHeads = constant('int64', [-1, heads, width], [3]);
    const split = (t: string) => op('Transpose', [op('Reshape', [t, toHeads])], { perm: [1, 0, 2] });
    const scores = op('MatMul', [op('Mul', [split(q), layer.queryScale]), op('Transpose', [split(k)], { perm: [0, 2, 1] })]);
    const combined = op('Transpose', [op('MatMul', [op('Softmax', [scores], { axis: -1 }), split(v)])], { perm: [1, 0, 2] });
    return op('Add', [op('MatMul', [op('Reshape', [combined, constant('int64', [-1, layer.width], [2])]), layer.out]), layer.outBias]);
  };
  const feedForward = (x: string, layer: (typeof layers)[number]): string => {
    const hidden = op('Relu', [op('Add', [op('MatMul', [layerNorm(x, layer.ffnNormScale, layer.ffnNormBias), layer.conv1]), layer.conv1Bias])]);
    return op('Add', [op('MatMul', [hidden, layer.conv2]), layer.conv2Bias]);
  };

  const looked = op('Gather', [embeddings, 'ids'], { axis: 0 });
  const count = op('Cast', [op('Shape', ['ids'])], { to: 1 }); // float [1]: n
  const positions = op('Range', [constant('float32', [0], []), op('Squeeze', [count, constant('int64', [0], [1])]), constant('float32', [1], [])]);
  const angles = op('Mul', [op('Unsqueeze', [positions, constant('int64', [1], [1])]), timescales]);
  const input = op('Add', [looked, op('Add', [looked, op('Concat', [op('Sin', [angles]), op('Cos', [angles])], { axis: 1 })])]);
  const [first, second] = layers as [(typeof layers)[number], (typeof layers)[number]];
  let h = op('Add', [attention(layerNorm(input, first.normScale, first.normBias), first), op('Add', [op('MatMul', [input, residual]), residualBias])]);
  h = op('Add', [feedForward(h, first), h]);
  h = op('Add', [attention(layerNorm(h, second.normScale, second.normBias), second), h]);
  h = op('Add', [feedForward(h, second), h]);
  const pooled = op('Div', [op('ReduceSum', [h, constant('int64', [0], [1])], { keepdims: 1 }), count]);
  const out = op('Tanh', [op('Add', [op('MatMul', [pooled, tanhWeights]), tanhBias])]);
  const norm = rsqrt(op('Max', [op('ReduceSum', [op('Mul', [out, out]), constant('int64', [1], [1])], { keepdims: 1 }), normFloor]));
  nodes.push({ op: 'Mul', inputs: [out, norm], outputs: ['vector'] });

  return {
    opset: 17,
    inputs: [{ name: 'ids', type: 'int32', dims: ['n'] }],
    outputs: [{ name: 'vector', type: 'float32', dims: [1, 512] }],
    initializers,
    nodes,
  };
}
