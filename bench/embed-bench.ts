import { join } from 'node:path';
import { fixedClock } from '../src/clock.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import type { Envelope } from '../src/events/envelope.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import type { Projection } from '../src/projections/projector.js';
import { vectorsProjection } from '../src/projections/vectors/vectors.js';
import type { Embedder } from '../src/indexes/embedder.js';
import { useLiteEmbedder } from '../src/recall/embedders/use-lite-embedder.js';
import { cachedEmbedder, EmbeddingCache } from '../src/recall/embedding-cache.js';
import { VectorStore } from '../src/indexes/vector-store.js';
import { ProjectionRunner } from '../src/engine/projection-runner.js';
import { StateStore } from '../src/engine/state-store.js';

export interface EmbedBenchResult {
  memories: number;
  /** Rows in the table after the cold and after the warm rebuild: the same. */
  rowsCold: number;
  rowsWarm: number;
  coldMs: number;
  warmMs: number;
  /** Texts that reached the model in the cold and in the warm rebuild. */
  embeddedCold: number;
  embeddedWarm: number;
}

const AREAS = ['billing', 'refunds', 'invoices', 'auth', 'webhooks', 'reports', 'exports', 'ledger', 'search', 'onboarding', 'settings', 'alerts', 'payouts', 'tax', 'notifications', 'checkout'];
const THINGS = ['postgres pool', 'redis cache', 'retry policy', 'feature flag', 'migration', 'rate limit', 'cron job', 'queue consumer', 'API client', 'schema', 'e2e test', 'lint rule', 'docker image', 'CI job', 'log format', 'timeout'];
const VERBS = ['must use', 'should avoid', 'breaks when', 'needs', 'was moved to', 'depends on', 'is flaky with', 'is configured by', 'times out without', 'is documented in'];
const OBJECTS = ['pnpm workspaces', 'the staging database', 'integer cents', 'UTC timestamps', 'the v2 endpoint', 'idempotency keys', 'the nightly backup', 'signed release tags', 'the shared fixtures', 'a 30 s deadline', 'the old CSV format', 'structured logs'];

/**
 * Memories of realistic shape (name, description, a two-line body), each with its own text; a
 * few say nearly what another of their directory says, and the memories projector makes those
 * a reinforcement, as it would for a user.
 */
export function syntheticMemories(count: number, projects = 8): Envelope[] {
  let state = 7;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 0x100000000);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const events: Envelope[] = [];
  for (let i = 0; i < count; i++) {
    const area = pick(AREAS);
    const thing = pick(THINGS);
    const project = `/home/dev/src/project-${i % projects}`;
    const description = `the ${area} ${thing} ${pick(VERBS)} ${pick(OBJECTS)} (case ${i})`;
    const at = new Date(Date.parse('2026-01-01T00:00:00.000Z') + i * 60_000).toISOString();
    events.push({
      id: `bench-memory-${String(i).padStart(6, '0')}`,
      type: 'MemoryProposed',
      schemaVersion: 1,
      ts: at,
      session: `bench-session-${Math.floor(i / 10)}`,
      project,
      data: {
        memoryId: `bench-${i}`,
        origin: 'distiller',
        scope: 'project',
        name: `${area} ${thing} ${i}`,
        description,
        type: pick(['feedback', 'project', 'reference', 'insight'] as const),
        body: `In ${area}, the ${thing} ${pick(VERBS)} ${pick(OBJECTS)}.\nSeen while working on ticket ${1000 + i}; ${pick(VERBS)} ${pick(OBJECTS)}.\n`,
        status: 'active',
        confidence: 0.7,
      },
    });
  }
  return events;
}

/**
 * The vectors projection rebuilt over `memories` memories, first with an empty embedding cache
 * (every text through the model), then with the cache the first run filled (no text should
 * reach the model). Both rebuilds go through the runner: reset, fold, sink, commit.
 */
export async function embedBench(dir: string, memories: number): Promise<EmbedBenchResult> {
  const log = await LevelEventLog.open(join(dir, 'log'));
  const events = syntheticMemories(memories);
  for (let i = 0; i < events.length; i += 5000) await log.append(events.slice(i, i + 5000));
  const store = await StateStore.open(join(dir, 'state'), { now: () => new Date() });
  const cache = await EmbeddingCache.open(join(dir, 'cache', 'embeddings'));
  const use = useLiteEmbedder();
  let embedded = 0;
  const counted: Embedder = { model: use.model, dimensions: use.dimensions, embed: (texts, signal) => ((embedded += texts.length), use.embed(texts, signal)), close: () => use.close() };
  const vectors = new VectorStore({ dir: join(dir, 'vectors'), model: use.model, dimensions: use.dimensions });
  const runner = new ProjectionRunner({
    log,
    catalog: defaultCatalog(),
    store,
    projections: [vectorsProjection({ dir: join(dir, 'vectors'), embedder: cachedEmbedder(counted, cache), store: vectors }) as unknown as Projection],
    clock: fixedClock(new Date()),
  });
  await runner.start();
  // The model loaded before the clock starts: the cold run measures embedding, not start-up.
  await use.embed(['warm up']);
  let t = performance.now();
  await runner.rebuild({ only: ['vectors'] });
  const coldMs = performance.now() - t;
  const embeddedCold = embedded;
  const rowsCold = await vectors.count();
  t = performance.now();
  await runner.rebuild({ only: ['vectors'] });
  const warmMs = performance.now() - t;
  const rowsWarm = await vectors.count();
  await vectors.close();
  await use.close();
  await cache.close();
  await store.close();
  await log.close();
  return { memories, rowsCold, rowsWarm, coldMs, warmMs, embeddedCold, embeddedWarm: embedded - embeddedCold };
}
