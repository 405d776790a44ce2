import type { FileOp } from '../file-ops.js';
import { isMemoryKey, memoriesProjector, type MemoriesRow } from '../memories/memories.js';
import type { MemoryRow } from '../memories/memory-row.js';
import { defineProjector } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { graphViewPath } from '../view-paths.js';
import { buildGraphIndex, renderGraphIndex } from './graph-index.js';
import { contributionOf, sameContribution, type GraphDirRow } from './graph-row.js';

/** Bump when the graph rows or the index file change for the same memories rows. */
const GRAPH_VERSION = 1;

const GRAPH = 'graph:';
export const graphKey = (dir: string): string => GRAPH + dir;
export const isGraphKey = (key: string): boolean => key.startsWith(GRAPH);

export type GraphRows = MemoriesRow | GraphDirRow;

/**
 * The entity graph: the memories projection's own rows (its `evolve`, so which memory is in force
 * is decided in one place) under a lane of its own, plus one row per memory directory holding what
 * each memory in force names. An event changes the graph row only when it changed what one of
 * its memories contributes, and then only that memory's part; the sink writes the directory's
 * compact index to `views/graph/`.
 */
export const graphProjector = defineProjector<GraphRows>({
  name: 'graph',
  projectorVersion: memoriesProjector.projectorVersion * 1000 + GRAPH_VERSION,
  handles: memoriesProjector.handles,
  evolve(state, event) {
    const changes = memoriesProjector.evolve(state as Parameters<typeof memoriesProjector.evolve>[0], event) as RowChange<GraphRows>[];
    // Most prompts teach nothing: no memory changed, so no graph row does (and nothing is allocated to say so).
    if (changes.length === 0) return changes;
    // The last row each memory was given in this event (the promotion gate may touch one twice).
    const after = new Map<string, MemoryRow | null>();
    for (const change of changes) if (isMemoryKey(change.key)) after.set(change.key, change.row as MemoryRow | null);
    const graphs = new Map<string, GraphDirRow>();
    for (const [key, row] of after) {
      const before = state.get(key) as MemoryRow | undefined;
      const memory = row ?? before;
      if (!memory) continue;
      const was = contributionOf(before);
      const is = contributionOf(row ?? undefined);
      if (sameContribution(was, is)) continue;
      const gkey = graphKey(memory.dir);
      const current = graphs.get(gkey) ?? (state.get(gkey) as GraphDirRow | undefined) ?? { dir: memory.dir, project: memory.project, memories: new Map() };
      const memories = new Map(current.memories);
      if (is) memories.set(memory.id, is);
      else memories.delete(memory.id);
      graphs.set(gkey, { ...current, memories });
    }
    return [...changes, ...[...graphs].map(([key, row]) => rowChange<GraphRows>(key, row))];
  },
});

/** `views/graph/<project slug>.json` (or `global.json`) for graph rows; the memories rows have no file here. */
export function materializeGraph(key: string, row: GraphRows): FileOp[] {
  if (!isGraphKey(key)) return [];
  const graph = row as GraphDirRow;
  return [{ kind: 'write', path: graphViewPath(graph.project), content: renderGraphIndex(buildGraphIndex(graph)) }];
}
