import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { projectSlug } from '../src/paths.js';
import type { GraphIndexFile } from '../src/projections/graph/graph-index.js';
import { readGraphIndexes } from '../src/recall/loaded-graph.js';
import { rankByGraph } from '../src/recall/graph-ranker.js';
import { graphSignal } from '../src/recall/graph-signal.js';
import { appendInSlices, projectionHarness, type Harness } from './support/projection-harness.js';

const root = mkdtempSync(join(tmpdir(), 'engram-graph-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, String(++n));
const project = '/home/dev/src/payments';

let seq = 0;
const event = (type: string, data: unknown, where = project): Envelope => {
  seq++;
  return { id: `evt-graph-${String(seq).padStart(6, '0')}`, type, schemaVersion: 1, ts: `2026-11-20T10:${String(seq % 60).padStart(2, '0')}:00.000Z`, session: 's1', project: where, data };
};
const proposed = (memoryId: string, name: string, options: { status?: 'active' | 'provisional'; global?: boolean } = {}): Envelope =>
  event(
    'MemoryProposed',
    { memoryId, origin: 'user', scope: options.global ? 'global' : 'project', name, description: name, type: 'project', body: `${name}\n`, status: options.status ?? 'active', confidence: 0.8 },
    options.global ? '' : project,
  );
type Entity = [name: string, type: string];
const graphed = (memoryId: string, entities: Entity[], relations: Array<[string, string, string]> = [], where = project): Envelope =>
  event('MemoryGraphed', { memoryId, graph: { entities: entities.map(([name, type]) => ({ name, type })), relations: relations.map(([src, rel, dst]) => ({ src, rel, dst })) } }, where);

const indexOf = (h: Harness, where = project): GraphIndexFile | undefined => {
  const path = join(h.roots.views, 'graph', `${where === '' ? 'global' : projectSlug(where)}.json`);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
};
const entity = (index: GraphIndexFile | undefined, key: string) => index?.entities.find((e) => e.key === key);
const memoriesOf = (index: GraphIndexFile, key: string) => entity(index, key)!.memories.map((i) => index.memories[i]!.id);

/** A small world: four memories name Postgres (a hub), one names the pool, one is provisional, one global. */
function world(): Envelope[] {
  return [
    proposed('m1', 'Pool size is 20'),
    graphed('m1', [['src/db/pool.ts', 'file'], ['Postgres', 'service']], [['src/db/pool.ts', 'configures', 'Postgres']]),
    proposed('m2', 'Migrations run before deploy'),
    graphed('m2', [['postgres', 'service'], ['Migrations', 'concept']], [['Migrations', 'part_of', 'deploy pipeline']]),
    proposed('m3', 'Ledger uses integer cents'),
    graphed('m3', [['ledger service', 'service'], ['Postgres', 'service']], [['ledger service', 'depends_on', 'Postgres']]),
    proposed('m4', 'Read replica lags'),
    graphed('m4', [['Postgres', 'service'], ['read replica', 'concept']], [['read replica', 'part_of', 'Postgres']]),
    proposed('m5', 'Deploys go through the pipeline'),
    graphed('m5', [['deploy pipeline', 'tool']]),
    proposed('p1', 'Maybe Redis caches sessions', { status: 'provisional' }),
    graphed('p1', [['Redis', 'service'], ['sessions', 'concept']], [['sessions', 'uses', 'Redis']]),
    proposed('g1', 'Prefer pnpm', { global: true }),
    graphed('g1', [['pnpm', 'tool']], [], ''),
  ];
}

describe('the graph projection', () => {
  it('indexes what the memories in force name: merged names, aliases, relations both ways, hubs marked', async () => {
    const h = await projectionHarness(freshDir());
    await h.log.append(world());
    await (await h.runner()).catchUp();
    const index = indexOf(h)!;
    expect(index.dir).toBe(`projects/${projectSlug(project)}/memory`);
    // "Postgres" and "postgres" are one entity, named in m1–m4: more than 3, a hub.
    const postgres = entity(index, 'postgre')!;
    expect(postgres).toMatchObject({ name: 'Postgres', type: 'service', hub: true, aliases: ['postgres'] });
    expect(memoriesOf(index, 'postgre')).toEqual(['m1', 'm2', 'm3', 'm4']);
    const pool = entity(index, 'src/db/pool.ts')!;
    expect(pool).toMatchObject({ type: 'file', hub: false, aliases: ['pool.ts'] });
    expect(pool.out.map(([rel, i]) => [rel, index.entities[i]!.key])).toEqual([['configures', 'postgre']]);
    expect(postgres.in.map(([rel, i]) => [rel, index.entities[i]!.key]).sort()).toEqual([
      ['configures', 'src/db/pool.ts'], ['depends_on', 'ledger service'], ['part_of', 'read replica'],
    ]);
    // A relation's end is named by the memory too (m2 names the deploy pipeline only in a relation).
    expect(memoriesOf(index, 'deploy pipeline')).toEqual(['m2', 'm5']);
    expect(entity(index, 'deploy pipeline')!.hub).toBe(false);
    // The provisional memory's entities are not there; the global memory's are in the global index.
    expect(entity(index, 'redis')).toBeUndefined();
    expect(index.memories.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(entity(indexOf(h, ''), 'pnpm')).toMatchObject({ name: 'pnpm', type: 'tool' });
    await h.close();
  });

  it('a provisional memory\'s entities appear once it is corroborated; an archived or superseded one\'s leave', async () => {
    const h = await projectionHarness(freshDir());
    await h.log.append(world());
    const runner = await h.runner();
    await runner.catchUp();
    expect(entity(indexOf(h), 'redis')).toBeUndefined();
    await h.log.append([event('MemoryCorroborated', { memoryId: 'p1', by: 'distiller' })]);
    await runner.catchUp();
    expect(memoriesOf(indexOf(h)!, 'redis')).toEqual(['p1']);
    expect(memoriesOf(indexOf(h)!, 'session')).toEqual(['p1']);

    await h.log.append([event('MemoryArchived', { memoryId: 'm4', reason: 'stale' })]);
    await runner.catchUp();
    let index = indexOf(h)!;
    expect(entity(index, 'read replica')).toBeUndefined();
    expect(memoriesOf(index, 'postgre')).toEqual(['m1', 'm2', 'm3']);
    // Three memories are not more than three: no longer a hub.
    expect(entity(index, 'postgre')!.hub).toBe(false);

    await h.log.append([event('MemorySuperseded', { memoryId: 'm3', by: 'm1' })]);
    await runner.catchUp();
    index = indexOf(h)!;
    expect(entity(index, 'ledger service')).toBeUndefined();
    expect(memoriesOf(index, 'postgre')).toEqual(['m1', 'm2']);

    // Restored, it counts again.
    await h.log.append([event('MemoryRestored', { memoryId: 'm4' })]);
    await runner.catchUp();
    expect(memoriesOf(indexOf(h)!, 'postgre')).toEqual(['m1', 'm2', 'm4']);
    expect(runner.status().every((s) => s.fault === undefined)).toBe(true);
    await h.close();
  });

  it('an event that changes no memory\'s graph contribution leaves the graph row alone; one that does touches only its directory', async () => {
    const h = await projectionHarness(freshDir());
    await h.log.append(world());
    const runner = await h.runner();
    await runner.catchUp();
    const rows = () => runner.rowsOf('graph');
    const before = await rows().get(`graph:projects/${projectSlug(project)}/memory`);
    const globalBefore = await rows().get('graph:memory');
    await h.log.append([event('MemoryReinforced', { memoryId: 'm1', by: 'user' }), event('MemoryPinned', { memoryId: 'm2' })]);
    await runner.catchUp();
    expect(await rows().get(`graph:projects/${projectSlug(project)}/memory`)).toBe(before);
    await h.log.append([graphed('m5', [['deploy pipeline', 'tool'], ['GitHub Actions', 'tool']])]);
    await runner.catchUp();
    const after = await rows().get(`graph:projects/${projectSlug(project)}/memory`);
    expect(runner.status().every((s) => s.fault === undefined)).toBe(true);
    expect(after).not.toEqual(before);
    expect(await rows().get('graph:memory')).toBe(globalBefore);
    expect(memoriesOf(indexOf(h)!, 'github action')).toEqual(['m5']);
    await h.close();
  });

  it('a rebuild writes byte for byte what the incremental run wrote', async () => {
    const events = [
      ...world(),
      event('MemoryCorroborated', { memoryId: 'p1', by: 'distiller' }),
      event('MemoryArchived', { memoryId: 'm4', reason: 'stale' }),
      graphed('m2', [['Postgres', 'service'], ['Flyway', 'tool']], [['Flyway', 'configures', 'Postgres']]),
      event('MemorySuperseded', { memoryId: 'm3', by: 'm1' }),
      event('MemoryRestored', { memoryId: 'm4' }),
    ];
    for (const cuts of [[1], [3, 7, 11], [2, 4, 6, 8, 10, 12, 14, 16, 18]]) {
      const h = await projectionHarness(freshDir());
      const runner = await h.runner({ windowSize: 3 });
      await appendInSlices(h, runner, events, cuts);
      expect(runner.status().every((s) => s.fault === undefined)).toBe(true);
      const incremental = h.snapshot();
      expect(Object.keys(incremental).filter((path) => path.startsWith('views/graph/'))).toHaveLength(2);
      await runner.rebuild();
      expect(h.snapshot()).toEqual(incremental);
      await h.close();
    }
  });
});

describe('the graph ranker over the projected index', () => {
  it('finds entities by name, alias, plural and path, and ranks memories naming them before their neighbours\'', async () => {
    const h = await projectionHarness(freshDir());
    await h.log.append([...world(), event('MemoryCorroborated', { memoryId: 'p1', by: 'distiller' })]);
    await (await h.runner()).catchUp();
    const graphs = readGraphIndexes(h.roots.views, project);
    expect(graphs.map((g) => g.index.project)).toEqual([project, '']);

    // A multi-word name, said in the plural: the ledger service's memory first, then its neighbour's (Postgres, a hub: half weight).
    const ledger = rankByGraph(graphs, 'why do the Ledger Services round refunds?');
    expect(ledger.matched.map((m) => m.key)).toEqual(['ledger service']);
    expect(ledger.hits[0]).toMatchObject({ id: 'm3', entity: 'ledger service', score: 1 });
    expect(ledger.hits.slice(1).map((hit) => [hit.id, hit.via, hit.score])).toEqual([['m1', 'Postgres', 0.25], ['m2', 'Postgres', 0.25], ['m4', 'Postgres', 0.25]]);

    // A path, and its base name alone: the pool's memory first, its neighbour Postgres (a hub) after.
    for (const prompt of ['look at ./src/db/pool.ts please', 'is pool.ts right?', 'what about lib/src/db/pool.ts']) {
      const ranked = rankByGraph(graphs, prompt);
      expect(ranked.matched.map((m) => m.key), prompt).toEqual(['src/db/pool.ts']);
      expect(ranked.hits[0], prompt).toMatchObject({ id: 'm1', entity: 'src/db/pool.ts', score: 1, file: 'pool-size-is-20.md' });
      expect(ranked.hits.slice(1).every((hit) => hit.score < 1 && hit.via === 'Postgres'), prompt).toBe(true);
    }

    // A hub named directly weighs less than an entity that is not, and is not expanded.
    const hub = rankByGraph(graphs, 'postgres is slow');
    expect(hub.matched).toMatchObject([{ key: 'postgre', hub: true }]);
    expect(hub.hits.map((hit) => [hit.id, hit.score])).toEqual([['m1', 0.6], ['m2', 0.6], ['m3', 0.6], ['m4', 0.6]]);

    // Two entities: the memory naming both ranks first; neighbours after every direct one.
    const two = rankByGraph(graphs, 'Redis and the read replica');
    expect(two.hits.map((hit) => hit.id)).toEqual(['m4', 'p1', 'm1', 'm2', 'm3']);
    expect(two.hits.map((hit) => hit.score)).toEqual([1, 1, 0.25, 0.25, 0.25]);
    const session = rankByGraph(graphs, 'where do sessions live');
    expect(session.hits.map((hit) => [hit.id, hit.entity, hit.via ?? null])).toEqual([['p1', 'sessions', null]]);

    // The global graph answers too; a prompt naming nothing finds nothing.
    expect(rankByGraph(graphs, 'use PNPM here').hits).toMatchObject([{ id: 'g1', entity: 'pnpm' }]);
    expect(rankByGraph(graphs, 'the weather is nice today').hits).toEqual([]);
    expect(rankByGraph(graphs, '').hits).toEqual([]);
    await h.close();
  });
});

describe('the graph signal of a long-lived recaller', () => {
  it('reads an index once and again only when the projection has replaced it', async () => {
    const h = await projectionHarness(freshDir());
    const runner = await h.runner();
    await h.log.append(world());
    await runner.catchUp();
    const signal = graphSignal(h.roots.views);
    const ask = async (text: string) => (await signal.rank({ text, words: [], project }, 10)).map((item) => item.id);
    expect(await ask('is the Kafka topic compacted?')).toEqual([]);
    await h.log.append([proposed('m6', 'Orders stream through Kafka'), graphed('m6', [['Kafka', 'service']])]);
    await runner.catchUp();
    expect(await ask('is the Kafka topic compacted?')).toEqual(['m6']);
    await h.close();
  });
});
