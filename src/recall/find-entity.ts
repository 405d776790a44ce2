import { entityKey } from '../projections/graph/entity-key.js';
import type { GraphIndexFile } from '../projections/graph/graph-index.js';
import type { LoadedGraph } from './loaded-graph.js';

export interface FoundEntity {
  readonly graph: LoadedGraph;
  readonly entity: GraphIndexFile['entities'][number];
}

/**
 * The entities a name means, in each graph: by its key (case, spacing and plural folded), or by
 * an alias (a path's base name). A path that no entity is named by is tried by its base name.
 */
export function findEntity(graphs: readonly LoadedGraph[], name: string): FoundEntity[] {
  const key = entityKey(name);
  const base = entityKey(name.split(/[\\/]/).filter(Boolean).pop() ?? '');
  const found: FoundEntity[] = [];
  for (const graph of graphs) {
    const positions = graph.lookup.get(key) ?? (base !== key ? graph.lookup.get(base) : undefined) ?? [];
    for (const position of positions) found.push({ graph, entity: graph.index.entities[position]! });
  }
  return found;
}
