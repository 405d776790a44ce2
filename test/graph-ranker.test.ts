import { describe, expect, it } from 'vitest';
import { entityKey, foldPlural } from '../src/projections/graph/entity-key.js';
import { buildGraphIndex, GraphIndexFile } from '../src/projections/graph/graph-index.js';
import type { GraphContribution, GraphDirRow } from '../src/projections/graph/graph-row.js';
import { findEntity } from '../src/recall/find-entity.js';
import { rankByGraph } from '../src/recall/graph-ranker.js';
import { loadedGraph } from '../src/recall/loaded-graph.js';

type Named = [id: string, entities: Array<[string, string]>, relations?: Array<[string, string, string]>];
const graphOf = (memories: Named[], project = '/p'): GraphDirRow => ({
  dir: project === '' ? 'engram/memory' : 'projects/-p/memory',
  project,
  memories: new Map(
    memories.map(([id, entities, relations = []]): [string, GraphContribution] => [
      id,
      {
        name: id,
        file: `${id}.md`,
        graph: {
          entities: entities.map(([name, type]) => ({ name, type: type as 'service' })),
          relations: relations.map(([src, rel, dst]) => ({ src, rel: rel as 'uses', dst })),
        },
      },
    ]),
  ),
});

describe('entity names', () => {
  it('fold case, spacing, punctuation and plurals alike on both sides', () => {
    expect(entityKey('  Connection   Pools ')).toBe('connection pool');
    expect(entityKey('`Libraries`')).toBe('library');
    expect(entityKey('./src/db/pool.ts')).toBe('src/db/pool.ts');
    expect(['services', 'indexes', 'batches', 'classes', 'redis', 'status', 'postgres', 'v2s', 'ids'].map(foldPlural)).toEqual([
      'service', 'index', 'batch', 'class', 'redis', 'status', 'postgre', 'v2s', 'ids',
    ]);
  });
});

describe('the graph index', () => {
  it('is the same bytes whatever order the memories came in, and its file parses back', () => {
    const a = buildGraphIndex(graphOf([['m1', [['Kafka', 'service']]], ['m2', [['kafka', 'service'], ['orders', 'concept']], [['orders', 'uses', 'Kafka']]]]));
    const b = buildGraphIndex(graphOf([['m2', [['kafka', 'service'], ['orders', 'concept']], [['orders', 'uses', 'Kafka']]], ['m1', [['Kafka', 'service']]]]));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(GraphIndexFile.parse(JSON.parse(JSON.stringify(a)))).toEqual(a);
  });

  it('keeps a name like __proto__ as data', () => {
    const index = buildGraphIndex(graphOf([['m1', [['__proto__', 'concept'], ['constructor', 'concept']]]]));
    const graph = loadedGraph(index);
    expect(findEntity([graph], '__proto__').map((found) => found.entity.name)).toEqual(['__proto__']);
    expect(findEntity([graph], 'toString')).toEqual([]);
  });
});

describe('rankByGraph', () => {
  const graph = loadedGraph(
    buildGraphIndex(
      graphOf([
        ['pool', [['connection pool', 'concept'], ['pgbouncer', 'tool']], [['pgbouncer', 'configures', 'connection pool']]],
        ['swim', [['pool', 'concept']]],
        ['bouncer', [['PgBouncer', 'tool'], ['Kubernetes', 'tool']], [['PgBouncer', 'part_of', 'Kubernetes']]],
        ['k1', [['Kubernetes', 'tool']]],
        ['k2', [['kubernetes', 'tool']]],
        ['k3', [['Kubernetes', 'tool']]],
        ['cfg', [['config/app.yaml', 'file']]],
      ]),
    ),
  );

  it('takes the longest name a prompt says, so "connection pool" is not also "pool"', () => {
    const ranked = rankByGraph([graph], 'the Connection Pools are exhausted');
    expect(ranked.matched.map((m) => m.key)).toEqual(['connection pool']);
    expect(ranked.hits.map((hit) => [hit.id, hit.score, hit.via ?? null])).toEqual([['pool', 1, null], ['bouncer', 0.5, 'PgBouncer']]);
    expect(rankByGraph([graph], 'is the pool heated').hits.map((hit) => hit.id)).toEqual(['swim']);
  });

  it('ranks every memory naming a prompt\'s entity before any neighbour\'s, and a hub\'s below a plain entity\'s', () => {
    const ranked = rankByGraph([graph], 'does pgbouncer run on kubernetes?');
    expect(ranked.matched).toMatchObject([{ key: 'pgbouncer', hub: false }, { key: 'kubernete', hub: true }]);
    // bouncer names both (1 + 0.6); pool names pgbouncer (1); k1–k3 name the hub (0.6). Nothing comes only as a neighbour
    // here except what a direct hit already holds.
    expect(ranked.hits.map((hit) => [hit.id, hit.score])).toEqual([['bouncer', 1.6], ['pool', 1], ['k1', 0.6], ['k2', 0.6], ['k3', 0.6]]);
    const scores = rankByGraph([graph], 'pgbouncer').hits;
    const direct = scores.filter((hit) => hit.via === undefined).map((hit) => hit.score);
    const neighbour = scores.filter((hit) => hit.via !== undefined).map((hit) => hit.score);
    expect(Math.min(...direct)).toBeGreaterThan(Math.max(...neighbour));
    // Through Kubernetes, a hub, the neighbour weight halves.
    expect(scores.find((hit) => hit.id === 'k1')).toMatchObject({ score: 0.25, via: 'Kubernetes', entity: 'PgBouncer' });
  });

  it('finds a file by its path, its base name, or a longer path ending in it, with punctuation around', () => {
    for (const prompt of ['open config/app.yaml.', 'what is in (app.yaml)?', 'see ~/work/repo/config/app.yaml']) {
      expect(rankByGraph([graph], prompt).hits.map((hit) => hit.id), prompt).toEqual(['cfg']);
    }
  });

  it('finds nothing in a prompt of stopwords, code or nothing, and finds a name at the end of a 10,000-word one', () => {
    expect(rankByGraph([graph], '').hits).toEqual([]);
    expect(rankByGraph([graph], 'the and of it').hits).toEqual([]);
    expect(rankByGraph([graph], 'const x = () => { return 1; }').hits).toEqual([]);
    const long = `${'lorem ipsum dolor '.repeat(3400)}pgbouncer`;
    expect(rankByGraph([graph], long).hits.slice(0, 2).map((hit) => [hit.id, hit.score])).toEqual([['bouncer', 1], ['pool', 1]]);
  });
});
