import { statSync } from 'node:fs';
import { join } from 'node:path';
import { graphViewPath } from '../projections/view-paths.js';
import { rankByGraph } from './graph-ranker.js';
import { readGraphIndex, type LoadedGraph } from './loaded-graph.js';
import type { RecallSignal } from './recall.js';

/**
 * Recall's graph list: the memories naming an entity the prompt names (or its 1-hop neighbour),
 * from the graph projection's index files under `views`, each with the entity that brought it
 * (what `[graph:postgres]` shows). No graph written yet: an empty list. An index is read and
 * checked once and kept until its file is replaced (the sink writes by rename), so a prompt costs
 * a stat per directory, not a parse that grows with the memories.
 */
export function graphSignal(views: string): RecallSignal {
  const loaded = new Map<string, { stamp: string; graph: LoadedGraph | undefined }>();
  const graphOf = (project: string): LoadedGraph | undefined => {
    const stamp = fileStamp(join(views, graphViewPath(project)));
    const cached = loaded.get(project);
    if (cached && cached.stamp === stamp) return cached.graph;
    const graph = stamp === '' ? undefined : readGraphIndex(views, project);
    loaded.set(project, { stamp, graph });
    return graph;
  };
  return {
    name: 'graph',
    rank(question, limit) {
      const graphs = [...(question.project === '' ? [] : [graphOf(question.project)]), graphOf('')].filter((g): g is LoadedGraph => g !== undefined);
      const { hits } = rankByGraph(graphs, question.text);
      return hits.slice(0, limit).map((hit) => ({ id: hit.id, score: hit.score, detail: hit.entity }));
    },
  };
}

/** What tells one written file from the next: '' when there is none. */
function fileStamp(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return '';
  }
}
