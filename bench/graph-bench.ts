// The entity graph's costs at 1,000 and 10,000 memories in one directory: folding one
// MemoryGraphed (graph lane against the memories lane alone, which both copy their directory's
// row), writing the directory's index, loading it as a hook or the worker would, and ranking.
//   npm run build && node dist/bench/graph-bench.js
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DomainEvent } from '../src/events/catalog.js';
import { projectMemoryDir } from '../src/paths.js';
import { buildGraphIndex, renderGraphIndex } from '../src/projections/graph/graph-index.js';
import { graphKey, graphProjector } from '../src/projections/graph/graph.js';
import type { GraphDirRow } from '../src/projections/graph/graph-row.js';
import { dirKey, memoriesProjector, memoryKey } from '../src/projections/memories/memories.js';
import { entryKey } from '../src/projections/memories/memories-rows.js';
import { dirEntry, type DirRow, type MemoryRow } from '../src/projections/memories/memory-row.js';
import type { RowReader } from '../src/projections/projector.js';
import { graphViewPath } from '../src/projections/view-paths.js';
import { rankByGraph } from '../src/recall/graph-ranker.js';
import { readGraphIndexes } from '../src/recall/loaded-graph.js';

const project = '/home/dev/src/bench';
const dir = projectMemoryDir(project);
const TYPES = ['service', 'library', 'tool', 'concept', 'file'] as const;

/** Entity `i`'s name: a few common ones (hubs), a long tail, some paths. */
const entityName = (i: number) => (i % 5 === 4 ? `src/module${i}/index${i}.ts` : `entity ${i}`);

function memory(i: number, vocabulary: number): MemoryRow {
  // Zipf-like: low numbers are named often.
  const pick = (k: number) => Math.floor(vocabulary * ((((i * 7919 + k * 104729) % 1000) / 1000) ** 3));
  const names = [...new Set([pick(1), pick(2), pick(3), pick(4)])];
  return {
    id: `m${i}`, dir, project, file: `memory-${i}.md`, name: `Memory ${i}`, description: '', type: 'project', tier: undefined, body: `memory ${i}\n`,
    status: 'active', confidence: 0.8, reinforced: 0, lastReinforced: '2026-11-01T00:00:00.000Z', created: '2026-11-01T00:00:00.000Z',
    modified: '2026-11-01T00:00:00.000Z', pinned: false, contradicts: [], supersededBy: undefined, supersededAt: undefined, origin: 'user',
    originSession: undefined, archived: undefined, extra: { top: [], metadata: [] }, sourceHash: undefined, editedHash: undefined, verification: undefined,
    graph: {
      entities: names.map((n) => ({ name: entityName(n), type: TYPES[n % 5]! })),
      relations: names.slice(1).map((n) => ({ src: entityName(names[0]!), rel: 'uses' as const, dst: entityName(n) })),
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(rounds: number, run: (i: number) => void): number {
  const times: number[] = [];
  for (let i = 0; i < rounds + 3; i++) {
    const t = performance.now();
    run(i);
    if (i >= 3) times.push(performance.now() - t);
  }
  return median(times);
}

export interface GraphBenchRow {
  memories: number;
  entities: number;
  /** Median ms to fold one MemoryGraphed: the graph lane, and the memories lane alone. */
  evolveMs: number;
  memoriesEvolveMs: number;
  /** Median ms to build and render the directory's index (once per round per changed directory). */
  indexMs: number;
  indexBytes: number;
  /** Median ms to read, parse and check the index file. */
  loadMs: number;
  /** Median ms to rank one prompt naming two entities. */
  rankMs: number;
}

export function graphBench(memories: number): GraphBenchRow {
  const vocabulary = Math.max(50, Math.floor(memories / 2));
  const rows = new Map<string, unknown>();
  const contributions = new Map();
  for (let i = 0; i < memories; i++) {
    const row = memory(i, vocabulary);
    rows.set(memoryKey(row.id), row);
    rows.set(entryKey(dir, row.id), dirEntry(row));
    contributions.set(row.id, { name: row.name, file: row.file, graph: row.graph! });
  }
  const dirRow: DirRow = { dir, project, asOf: '2026-11-01T00:00:00.000Z' };
  const graphRow: GraphDirRow = { dir, project, memories: contributions };
  rows.set(dirKey(dir), dirRow);
  rows.set(graphKey(dir), graphRow);
  const reader = { get: (key: string) => rows.get(key) } as RowReader<never>;
  const event = (i: number): DomainEvent =>
    ({ seq: i, id: `evt-${i}`, type: 'MemoryGraphed', schemaVersion: 1, ts: '2026-11-02T00:00:00.000Z', session: '', project, data: { memoryId: `m${i % memories}`, graph: { entities: [{ name: `fresh ${i}`, type: 'concept' }], relations: [] } } }) as DomainEvent;
  const evolveMs = time(30, (i) => graphProjector.evolve(reader, event(i)));
  const memoriesEvolveMs = time(30, (i) => memoriesProjector.evolve(reader, event(i)));
  let text = '';
  const indexMs = time(10, () => {
    text = renderGraphIndex(buildGraphIndex(graphRow));
  });
  const root = mkdtempSync(join(tmpdir(), 'engram-bench-graph-'));
  try {
    const path = join(root, graphViewPath(project));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    const loadMs = time(20, () => readGraphIndexes(root, project));
    const graphs = readGraphIndexes(root, project);
    const rankMs = time(200, (i) => rankByGraph(graphs, `why does ${entityName((i * 13) % vocabulary)} fail when it talks to ${entityName((i * 31) % vocabulary)} under load?`));
    return { memories, entities: graphs[0]!.index.entities.length, evolveMs, memoriesEvolveMs, indexMs, indexBytes: Buffer.byteLength(text), loadMs, rankMs };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('graph-bench.js')) {
  for (const n of [1_000, 10_000]) {
    const r = graphBench(n);
    console.log(
      `graph, ${r.memories} memories (${r.entities} entities): fold one MemoryGraphed ${r.evolveMs.toFixed(2)} ms (memories lane alone ${r.memoriesEvolveMs.toFixed(2)} ms); ` +
        `index ${r.indexMs.toFixed(1)} ms, ${(r.indexBytes / 1024).toFixed(0)} KiB; load ${r.loadMs.toFixed(1)} ms; rank a prompt ${r.rankMs.toFixed(3)} ms`,
    );
  }
}
