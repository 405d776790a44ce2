import { rankByGraph } from './graph-ranker.js';
import { readGraphIndexes } from './loaded-graph.js';
import type { RecallSignal } from './recall.js';

/**
 * Recall's graph list: the memories naming an entity the prompt names (or its 1-hop neighbour),
 * from the graph projection's index files under `views`, each with the entity that brought it
 * (what `[graph:postgres]` shows). No graph written yet: an empty list.
 */
export function graphSignal(views: string): RecallSignal {
  return {
    name: 'graph',
    rank(question, limit) {
      const { hits } = rankByGraph(readGraphIndexes(views, question.project), question.text);
      return hits.slice(0, limit).map((hit) => ({ id: hit.id, score: hit.score, detail: hit.entity }));
    },
  };
}
