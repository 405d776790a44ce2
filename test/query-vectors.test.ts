import { afterAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../src/indexes/embedder.js';
import { useLiteEmbedder } from '../src/recall/embedders/use-lite-embedder.js';
import { QueryVectors } from '../src/recall/query-vectors.js';

// The vector signal keeps recent prompts' vectors (query-vectors.ts): what it saves is calls to
// the real model, counted here.
describe('QueryVectors', () => {
  const use = useLiteEmbedder();
  afterAll(() => use.close());
  let calls = 0;
  const counted: Embedder = { model: use.model, dimensions: use.dimensions, embed: (texts, signal) => ((calls += 1), use.embed(texts, signal)), close: () => use.close() };

  it('embeds a prompt asked again, or twice at once, only once, with the same vector', async () => {
    const queries = new QueryVectors(counted);
    calls = 0;
    const [a, b] = await Promise.all([queries.vectorOf('which package manager should I use'), queries.vectorOf('which package manager should I use')]);
    const again = await queries.vectorOf('which package manager should I use');
    expect(calls).toBe(1);
    expect(b).toBe(a);
    expect(again).toBe(a);
    const [direct] = await use.embed(['which package manager should I use']);
    expect(Array.from(a)).toEqual(Array.from(direct!));
  });

  it('keeps the last 64 prompts: the oldest unused one is embedded again, a recently used one is not', async () => {
    const queries = new QueryVectors(counted);
    calls = 0;
    await queries.vectorOf('prompt 0');
    await queries.vectorOf('prompt 1');
    for (let i = 2; i < 64; i++) await queries.vectorOf(`prompt ${i}`);
    // Used again: newest, so the next new prompt pushes out 'prompt 1' instead.
    await queries.vectorOf('prompt 0');
    await queries.vectorOf('prompt 64');
    expect(calls).toBe(65);
    await queries.vectorOf('prompt 0');
    expect(calls).toBe(65);
    await queries.vectorOf('prompt 1');
    expect(calls).toBe(66);
  });

  it('does not keep a failed embedding: the next ask tries again', async () => {
    let fail = true;
    const flaky: Embedder = { ...counted, embed: (texts, signal) => (fail ? Promise.reject(new Error('model thread ended')) : counted.embed(texts, signal)) };
    const queries = new QueryVectors(flaky);
    await expect(queries.vectorOf('postgres pool size')).rejects.toThrow('model thread ended');
    fail = false;
    calls = 0;
    expect((await queries.vectorOf('postgres pool size')).length).toBe(512);
    expect(calls).toBe(1);
  });
});
