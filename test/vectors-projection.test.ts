import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { FileSink } from '../src/projections/file-sink.js';
import { materializeMemories, memoryTakenHashes } from '../src/projections/memories/materialize-memories.js';
import { memoriesProjector } from '../src/projections/memories/memories.js';
import type { MemoryRow } from '../src/projections/memories/memory-row.js';
import type { Projection } from '../src/projections/projector.js';
import { indexedText } from '../src/projections/vectors/indexed-text.js';
import { vectorsProjection } from '../src/projections/vectors/vectors.js';
import type { Embedder } from '../src/indexes/embedder.js';
import { bgeSmallDir, fastembedEmbedder } from '../src/recall/embedders/fastembed-embedder.js';
import { useLiteEmbedder } from '../src/recall/embedders/use-lite-embedder.js';
import { cachedEmbedder, EmbeddingCache } from '../src/recall/embedding-cache.js';
import { searchVectors } from '../src/recall/search-vectors.js';
import { VectorStore } from '../src/indexes/vector-store.js';
import { appendInSlices, projectionHarness, type Harness } from './support/projection-harness.js';
import { packageInstalled } from './support/package-installed.js';
import { writeTinyBertModel } from './support/tiny-bert-model.js';

const root = mkdtempSync(join(tmpdir(), 'engram-vectors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, String(++n));
const payments = '/home/dev/src/payments';
const website = '/home/dev/src/website';

let seq = 0;
const event = (type: string, data: unknown, project = payments): Envelope => {
  seq++;
  return { id: `evt-vec-${String(seq).padStart(6, '0')}`, type, schemaVersion: 1, ts: `2026-11-01T10:${String(Math.floor(seq / 60) % 60).padStart(2, '0')}:${String(seq % 60).padStart(2, '0')}.000Z`, session: 's1', project, data };
};
const proposed = (memoryId: string, name: string, description: string, extra: Record<string, unknown> = {}, project = payments) =>
  event('MemoryProposed', { memoryId, origin: 'user', scope: project === '' ? 'global' : 'project', name, description, type: 'feedback', body: `${description}\n`, status: 'active', confidence: 0.8, ...extra }, project);

/** The real model, counting the texts that reach it (past the cache). */
const use = useLiteEmbedder();
let embedded = 0;
const countedUse: Embedder = { model: use.model, dimensions: use.dimensions, embed: (texts, signal) => ((embedded += texts.length), use.embed(texts, signal)), close: () => use.close() };
afterAll(() => use.close());

interface Setup {
  h: Harness;
  cache: EmbeddingCache;
  store: VectorStore;
  embedder: Embedder;
  close(): Promise<void>;
}

/** A harness whose projections are the vectors (and, when asked, the memory files), over one embedding cache. */
async function setup(dir: string, model: Embedder = countedUse, withFiles = false): Promise<Setup> {
  const cache = await EmbeddingCache.open(join(dir, 'cache', 'embeddings'));
  const embedder = cachedEmbedder(model, cache);
  const vectorsDir = join(dir, 'vectors');
  const h = await projectionHarness(dir, (roots) => [
    ...(withFiles ? [{ projector: memoriesProjector, sink: new FileSink({ root: roots.claude, materialize: materializeMemories, takenHashes: memoryTakenHashes, indexWriter: 'memories' }) } as unknown as Projection] : []),
    vectorsProjection({ dir: vectorsDir, embedder }) as unknown as Projection,
  ]);
  const store = new VectorStore({ dir: vectorsDir, model: model.model, dimensions: model.dimensions });
  return {
    h, cache, store, embedder,
    async close() {
      await store.close();
      await h.close();
      await cache.close();
    },
  };
}

const ids = async (store: VectorStore) => (await store.rows()).map((row) => row.id);

describe('the vectors projection', () => {
  it('indexes name, description and body, then the entities its graph names, each once', () => {
    const row = { name: 'Pool timeout', description: 'raise pool_timeout', body: 'Seen in CI.\n', graph: undefined as MemoryRow['graph'] };
    expect(indexedText(row)).toBe('Pool timeout\nraise pool_timeout\nSeen in CI.');
    const graph: MemoryRow['graph'] = { entities: [{ name: 'postgres', type: 'tool' }, { name: 'payments-api', type: 'repo' }, { name: 'postgres', type: 'tool' }], relations: [] };
    expect(indexedText({ ...row, body: '', graph })).toBe('Pool timeout\nraise pool_timeout\npostgres, payments-api');
  });

  it('keeps active memories only, upserted by id: provisional, superseded and archived ones are not there', async () => {
    const s = await setup(freshDir());
    const runner = await s.h.runner();
    await s.h.log.append([
      proposed('m1', 'Postgres pool timeout', 'the postgres connection pool times out in CI; raise the pool timeout'),
      proposed('m2', 'Tabs in Makefiles', 'Makefiles need tabs', { status: 'provisional', confidence: 0.3 }),
      proposed('m3', 'Release tags', 'deploy by pushing a release tag'),
      proposed('m4', 'Old CI', 'CI runs on Jenkins'),
      proposed('m5', 'New CI', 'CI runs on GitHub Actions'),
    ]);
    await runner.catchUp();
    expect(await ids(s.store)).toEqual(['m1', 'm3', 'm4', 'm5']);

    const before = (await s.store.rows()).find((row) => row.id === 'm3')!;
    await s.h.log.append([
      event('MemoryCorroborated', { memoryId: 'm2', by: 'distiller' }),
      event('MemoryArchived', { memoryId: 'm1', reason: 'decayed' }),
      event('MemorySuperseded', { memoryId: 'm4', by: 'm5' }),
      event('MemoryEdited', { memoryId: 'm3', by: 'hand', name: 'Release tags', description: 'deploy by pushing a signed release tag from main', type: 'feedback', body: 'Sign the tag.\n' }),
    ]);
    await runner.catchUp();
    const rows = await s.store.rows();
    expect(rows.map((row) => row.id)).toEqual(['m2', 'm3', 'm5']);
    const after = rows.find((row) => row.id === 'm3')!;
    expect(after.textHash).not.toBe(before.textHash);
    expect(Array.from(after.vector)).not.toEqual(Array.from(before.vector));
    expect(rows.every((row) => row.vector.length === 512 && row.project === payments)).toBe(true);

    await s.h.log.append([event('MemoryRestored', { memoryId: 'm1' })]);
    await runner.catchUp();
    expect(await ids(s.store)).toEqual(['m1', 'm2', 'm3', 'm5']);
    await s.close();
  });

  it('rebuilds the same rows as the incremental run, from the cache, without the model', async () => {
    const s = await setup(freshDir());
    const events = [
      proposed('a1', 'Use pnpm', 'use pnpm, not npm, in this repo'),
      proposed('a2', 'Money is integer cents', 'amounts are integer cents, never floats'),
      proposed('a3', 'Flaky e2e', 'the checkout e2e test is flaky on Mondays', { status: 'provisional', confidence: 0.3 }),
      proposed('g1', 'Terse answers', 'the user wants short answers without preamble', {}, ''),
      event('MemoryCorroborated', { memoryId: 'a3', by: 'distiller' }),
      event('MemoryEdited', { memoryId: 'a1', by: 'agent', name: 'Use pnpm', description: 'use pnpm 9, never npm or yarn', type: 'feedback', body: 'pnpm 9.\n' }),
      proposed('w1', 'Astro site', 'the website is built with Astro', {}, website),
      event('MemoryArchived', { memoryId: 'a2', reason: 'decayed' }),
      proposed('a4', 'Ledger is append-only', 'never update ledger rows; append a reversal'),
    ];
    const runner = await s.h.runner();
    await appendInSlices(s.h, runner, events, [2, 3, 5, 6, 8]);
    const incremental = await s.store.rows();
    expect(incremental.map((row) => row.id)).toEqual(['a1', 'a3', 'a4', 'g1', 'w1']);

    const embeddedBefore = embedded;
    await runner.rebuild({ only: ['vectors'] });
    expect(await s.store.rows()).toEqual(incremental);
    expect(embedded).toBe(embeddedBefore);

    // A fresh store over the same log and cache (a rebuild on another day) finds the same rows.
    await s.store.drop();
    const fresh = await s.h.runner();
    await fresh.rebuild();
    expect(await s.store.rows()).toEqual(incremental);
    expect(embedded).toBe(embeddedBefore);
    await s.store.optimize();
    expect(await s.store.rows()).toEqual(incremental);
    await s.close();
  });

  it('searches the project and the global memories by cosine, best first', async () => {
    const s = await setup(freshDir());
    await s.h.log.append([
      proposed('p1', 'Postgres pool timeout', 'the postgres connection pool times out under load; raise pool_timeout to 30 s'),
      proposed('p2', 'Release tags', 'deploy by pushing a signed release tag from main'),
      proposed('p3', 'Tabs in Makefiles', 'Makefiles must be indented with tabs'),
      proposed('g1', 'Terse answers', 'the user wants short answers without preamble', {}, ''),
      proposed('w1', 'Database pool for the website', 'the website database connection pool times out too', {}, website),
    ]);
    await (await s.h.runner()).catchUp();
    const hits = await searchVectors(s, 'database connections time out when the pool is exhausted', { project: payments, limit: 10 });
    expect(hits[0]!.id).toBe('p1');
    expect(hits.map((hit) => hit.id).sort()).toEqual(['g1', 'p1', 'p2', 'p3']);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.cosine).toBeGreaterThanOrEqual(hits[i]!.cosine);
    expect(hits.every((hit) => hit.cosine > -1.0001 && hit.cosine < 1.0001)).toBe(true);
    expect(await searchVectors(s, 'database pool timeout', { project: payments, limit: 2 })).toHaveLength(2);
    expect((await searchVectors(s, 'database pool timeout', { project: website })).map((hit) => hit.id).sort()).toEqual(['g1', 'w1']);
    expect(await searchVectors(s, '   ', { project: payments })).toEqual([]);
    await s.close();
  });

  it.skipIf(!packageInstalled('fastembed'))('starts over alone when the model changes; rows its model cannot embed fail alone and are retried', async () => {
    const dir = freshDir();
    const models = join(dir, 'models');
    writeTinyBertModel(bgeSmallDir(models), 384);
    unlinkSync(join(bgeSmallDir(models), 'model_optimized.onnx'));
    const events = [proposed('m1', 'Postgres pool', 'the postgres connection pool timeout'), proposed('m2', 'Makefile tabs', 'prefer tabs for makefile indent')];

    let s = await setup(dir, countedUse, true);
    await s.h.log.append(events);
    await (await s.h.runner()).catchUp();
    expect(await ids(s.store)).toEqual(['m1', 'm2']);
    const useStore = s.store;
    await s.cache.close();
    await s.h.close();

    // Now BGE-small, whose model folder lacks its model: the vectors lane restarts alone, and its
    // rows fail (recorded, retried) without holding up the lane or the memory files.
    s = await setup(dir, fastembedEmbedder({ modelsDir: models }), true);
    let runner = await s.h.runner();
    expect(runner.status().find((lane) => lane.name === 'vectors')!.resetPending).toMatch(/projectorVersion changed/);
    expect(runner.status().find((lane) => lane.name === 'memories')!.resetPending).toBeUndefined();
    await runner.catchUp();
    await s.h.log.append([proposed('m3', 'Docker in CI', 'docker runs the ci tests')]);
    await runner.catchUp();
    const status = Object.fromEntries(runner.status().map((lane) => [lane.name, lane]));
    expect(status.memories!.seq).toBe(3);
    expect(status.vectors!.seq).toBe(3);
    expect(status.vectors!.failing).toBeUndefined();
    expect(status.vectors!.failedRows.map((row) => row.key).sort()).toEqual(['mem:m1', 'mem:m2', 'mem:m3']);
    expect(status.vectors!.failedRows.every((row) => row.message.includes('EMBEDDER_UNAVAILABLE'))).toBe(true);
    expect(await s.store.count()).toBe(0);

    // The model folder made whole: the lane catches up, into a table of its own.
    writeTinyBertModel(bgeSmallDir(models), 384);
    runner = await s.h.runner({ retryFailedMs: 0 });
    await runner.catchUp();
    expect(runner.status().find((lane) => lane.name === 'vectors')!.failedRows).toEqual([]);
    expect(await ids(s.store)).toEqual(['m1', 'm2', 'm3']);
    expect(s.store.table).not.toBe(useStore.table);
    expect((await s.store.rows())[0]!.vector).toHaveLength(384);
    // The other model's table is left as it was.
    expect(await ids(useStore)).toEqual(['m1', 'm2']);
    await useStore.close();
    await s.close();
  });
});
