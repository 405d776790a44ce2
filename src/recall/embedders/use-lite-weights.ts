import type { WeightTensor } from './use-lite-onnx.js';

/** model.json's `weightsManifest`: shard files, and the weights they hold one after another. */
export type WeightsManifest = ReadonlyArray<{
  paths: readonly string[];
  weights: ReadonlyArray<{ name: string; shape: number[]; dtype: string; quantization?: unknown }>;
}>;

/**
 * The package's weights as TensorFlow.js's loader reads them (each group's shards end to end,
 * each weight its shape's count of little-endian 4-byte values, in the manifest's order), without
 * TensorFlow.js: onnxruntime's path needs only the numbers, and loading the graph model would
 * start TensorFlow.js's WASM backend (≈ 130 MB that never shrinks) for nothing. `read(path)` gives
 * a shard's bytes. USE Lite's weights are float32 and int32, none quantized; anything else is an
 * error, and the caller falls back to TensorFlow.js.
 *
 * Self-contained (no import at run time, nothing from outside): use-lite-embedder.ts gives its
 * source to the model's process.
 */
export function useLiteWeights(manifest: WeightsManifest, read: (path: string) => Uint8Array): Record<string, WeightTensor[]> {
  const out: Record<string, WeightTensor[]> = {};
  for (const group of manifest) {
    const shards = group.paths.map(read);
    const all = new Uint8Array(shards.reduce((n, s) => n + s.length, 0));
    let at = 0;
    for (const shard of shards) {
      all.set(shard, at);
      at += shard.length;
    }
    let offset = 0;
    for (const w of group.weights) {
      if ((w.dtype !== 'float32' && w.dtype !== 'int32') || w.quantization) throw new Error(`USE Lite's weight ${w.name} is ${w.dtype}${w.quantization ? ', quantized' : ''}: not read here`);
      const count = w.shape.reduce((n, d) => n * d, 1);
      const values = w.dtype === 'float32' ? new Float32Array(all.buffer, offset, count) : new Int32Array(all.buffer, offset, count);
      offset += count * 4;
      out[w.name] = [{ shape: w.shape, dataSync: () => values }];
    }
    if (offset !== all.length) throw new Error(`USE Lite's weights take ${offset} bytes of the ${all.length} their shards hold`);
  }
  return out;
}
