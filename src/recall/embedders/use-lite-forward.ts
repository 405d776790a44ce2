/** A tensor of TensorFlow.js, as far as useLiteForward needs to know one. */
export interface Tensor {
  readonly shape: number[];
  /** A copy of the values, out of the WASM memory. */
  dataSync(): Float32Array;
}

/**
 * The TensorFlow.js operations useLiteForward calls (`@energetic-ai/core` exports them all, on its
 * WASM backend); the package's own types name a `@tensorflow/tfjs-core` that is not installed.
 */
export interface TensorOps {
  tidy<T>(fn: () => T): T;
  tensor1d(values: number[], dtype: 'int32'): Tensor;
  range(start: number, stop: number, step: number, dtype: 'float32'): Tensor;
  gather(x: Tensor, indices: Tensor): Tensor;
  expandDims(x: Tensor, axis: number): Tensor;
  squeeze(x: Tensor, axes: number[]): Tensor;
  reshape(x: Tensor, shape: number[]): Tensor;
  transpose(x: Tensor, perm: number[]): Tensor;
  concat(xs: Tensor[], axis: number): Tensor;
  split(x: Tensor, parts: number, axis: number): Tensor[];
  matMul(a: Tensor, b: Tensor, transposeA?: boolean, transposeB?: boolean): Tensor;
  add(a: Tensor, b: Tensor): Tensor;
  sub(a: Tensor, b: Tensor): Tensor;
  mul(a: Tensor, b: Tensor): Tensor;
  div(a: Tensor, b: Tensor | number): Tensor;
  maximum(a: Tensor, b: Tensor): Tensor;
  mean(x: Tensor, axis: number, keepDims: boolean): Tensor;
  sum(x: Tensor, axis: number, keepDims: boolean): Tensor;
  square(x: Tensor): Tensor;
  rsqrt(x: Tensor): Tensor;
  sin(x: Tensor): Tensor;
  cos(x: Tensor): Tensor;
  relu(x: Tensor): Tensor;
  tanh(x: Tensor): Tensor;
  softmax(x: Tensor): Tensor;
}

/**
 * USE Lite's forward pass written out, op by op, from the package's graph (model.json: a
 * two-layer transformer over SentencePiece ids, 317 graph nodes), called eagerly on the same
 * WASM backend. The graph executor, which the package's `embed` runs (`executeAsync`, because
 * the graph holds a `Where`), spent ≈ 9 ms a call on its own bookkeeping, and padded each batch
 * to its longest text; here a text is one `tidy` of ≈ 60 kernel calls over its own tokens only.
 *
 * What the graph does, and so this: the first 128 tokens (ClipToMaxLength); each token's
 * embedding added to itself plus a sine/cosine timing signal (the graph adds the embedding twice:
 * the scatter of the lookup and the scatter of lookup + timing); layer 0 (256 → 512: a dense
 * residual projection, 4 heads of 64) and layer 1 (512, 4 heads of 128), each pre-norm attention
 * and a ReLU feed-forward of 1536; the mean over the tokens; a tanh layer; L2 normalisation.
 * Every operation is the graph's in the graph's order (a layer norm is scale · rsqrt(var + ε),
 * times x − mean, plus bias), so the vectors are the graph's: a test compares them on every text
 * it has (test/use-lite-forward.test.ts), and the embedding cache keeps its model id.
 *
 * Self-contained (no import, nothing from outside): use-lite-embedder.ts gives its source to the
 * model's thread. `weights` is the loaded graph model's weight map.
 */
export function useLiteForward(tf: TensorOps, weights: Record<string, Tensor[] | undefined>): (ids: readonly number[]) => Float32Array {
  const weight = (name: string): Tensor => {
    const found = weights[name];
    if (!found || !found[0]) throw new Error(`USE Lite's graph has no weight ${name}`);
    return found[0];
  };
  const encoder = 'module_apply_default/Encoder_en/KonaTransformer/Encode/';
  const layers = [0, 1].map((i) => {
    const own = `${encoder}Layer_${i}/TransformerLayer/`;
    const stack = `${encoder}TransformerStack/Layer_${i}/TransformerLayer/`;
    // The attention's transforms are 1×1 convolutions in the graph: the same products as a matrix.
    const kernel = (name: string) => tf.squeeze(weight(`module/Encoder_en/KonaTransformer/Encode/Layer_${i}/TransformerLayer/MultiheadAttention/${name}/kernel/part_0`), [0, 1]);
    return {
      normScale: weight(`${own}layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`),
      normBias: weight(`${own}layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`),
      qkv: kernel('qkv_transform_single'),
      qkvBias: weight(`${own}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`),
      out: kernel('output_transform_single'),
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
  const heads = 4;
  const maxTokens = 128;
  const embeddings = weight('module/Embeddings_en');
  const timescales = weight(`${encoder}TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`);
  const residual = weight(`${encoder}Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat`);
  const residualBias = weight(`${encoder}Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat`);
  const epsilon = weight(`${encoder}TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`);
  const tanhWeights = weight('module/Encoder_en/hidden_layers/tanh_layer_0/weights');
  const tanhBias = weight('module/Encoder_en/hidden_layers/tanh_layer_0/bias');
  const normFloor = weight('module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y');

  const layerNorm = (x: Tensor, scale: Tensor, bias: Tensor): Tensor => {
    const centred = tf.sub(x, tf.mean(x, -1, true));
    const variance = tf.mean(tf.square(centred), -1, true);
    return tf.add(tf.mul(tf.mul(scale, tf.rsqrt(tf.add(variance, epsilon))), centred), bias);
  };
  const attention = (x: Tensor, layer: (typeof layers)[number], n: number): Tensor => {
    const [q, k, v] = tf.split(tf.add(tf.matMul(x, layer.qkv), layer.qkvBias), 3, 1) as [Tensor, Tensor, Tensor];
    const width = q.shape[1]! / heads;
    const split = (t: Tensor) => tf.transpose(tf.reshape(t, [n, heads, width]), [1, 0, 2]);
    const weightsOf = tf.softmax(tf.matMul(tf.mul(split(q), layer.queryScale), split(k), false, true));
    const combined = tf.reshape(tf.transpose(tf.matMul(weightsOf, split(v)), [1, 0, 2]), [n, heads * width]);
    return tf.add(tf.matMul(combined, layer.out), layer.outBias);
  };
  const feedForward = (x: Tensor, layer: (typeof layers)[number]): Tensor => {
    const hidden = tf.relu(tf.add(tf.matMul(layerNorm(x, layer.ffnNormScale, layer.ffnNormBias), layer.conv1), layer.conv1Bias));
    return tf.add(tf.matMul(hidden, layer.conv2), layer.conv2Bias);
  };

  return (ids) => {
    const n = Math.min(ids.length, maxTokens);
    if (n === 0) throw new Error('USE Lite was given no tokens');
    return tf.tidy(() => {
      const looked = tf.gather(embeddings, tf.tensor1d(ids.slice(0, n), 'int32'));
      const angles = tf.mul(tf.expandDims(tf.range(0, n, 1, 'float32'), 1), timescales);
      const input = tf.add(looked, tf.add(looked, tf.concat([tf.sin(angles), tf.cos(angles)], 1)));
      const [first, second] = layers as [(typeof layers)[number], (typeof layers)[number]];
      let h = tf.add(attention(layerNorm(input, first.normScale, first.normBias), first, n), tf.add(tf.matMul(input, residual), residualBias));
      h = tf.add(feedForward(h, first), h);
      h = tf.add(attention(layerNorm(h, second.normScale, second.normBias), second, n), h);
      h = tf.add(feedForward(h, second), h);
      const pooled = tf.div(tf.sum(h, 0, true), n);
      const out = tf.tanh(tf.add(tf.matMul(pooled, tanhWeights), tanhBias));
      // A copy of its own: the thread hands its buffer over to the caller.
      return Float32Array.from(tf.mul(out, tf.rsqrt(tf.maximum(tf.sum(tf.square(out), 1, true), normFloor))).dataSync());
    });
  };
}
