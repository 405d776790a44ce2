// The graph signal for `npm run eval`: each directory's recallable memories' graph sidecars (the
// set's `_graph/<file>.json`, as the memories projection writes them), indexed as the graph
// projection indexes them, and ranked by rankByGraph over the query's project and the global one.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DistillGraph } from '../src/events/distill-answer-schema.js';
import { buildGraphIndex } from '../src/projections/graph/graph-index.js';
import type { GraphContribution } from '../src/projections/graph/graph-row.js';
import { rankByGraph } from '../src/recall/graph-ranker.js';
import { loadedGraph, type LoadedGraph } from '../src/recall/loaded-graph.js';
import type { Ranker } from '../src/recall/recall-eval.js';
import { dirsFor, type EvalSet } from './recall-eval-set.js';

export function graphRanker(root: string, set: EvalSet): Ranker {
  const graphs = new Map<string, LoadedGraph>();
  for (const [slug, docs] of set.dirs) {
    const memories = new Map<string, GraphContribution>();
    for (const doc of docs) {
      const path = join(root, 'memories', slug, '_graph', `${doc.file}.json`);
      if (!existsSync(path)) continue;
      // The set's loader has already refused a malformed sidecar; this reads the graph part again.
      const graph = DistillGraph.parse(JSON.parse(readFileSync(path, 'utf8')));
      if (graph.entities.length > 0 || graph.relations.length > 0) memories.set(doc.id, { name: doc.name, file: doc.file, graph });
    }
    graphs.set(slug, loadedGraph(buildGraphIndex({ dir: slug, project: slug, memories })));
  }
  return {
    name: 'graph',
    rank(query) {
      const found = dirsFor(query.project).flatMap((slug) => graphs.get(slug) ?? []);
      return rankByGraph(found, query.text).hits.map((hit) => ({ id: hit.id, score: hit.score }));
    },
  };
}
