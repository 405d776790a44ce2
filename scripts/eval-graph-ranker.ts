// The graph signal of `npm run eval`, read straight from the fixtures' `_graph/*.json` sidecars
// until the graph projection's ranker (src/recall/graph-ranker.ts, branch `graph`) is on main; it
// is a Ranker like any other, so the real one replaces it without touching the evaluation.
// DESIGN.md "Recall": a memory naming an entity the prompt names scores 1, one naming a 1-hop
// neighbour 0.5; an entity named by more than 3 memories (a hub) counts less and is not expanded.
import { analyze } from '../src/indexes/query-words.js';
import type { Ranker } from '../src/recall/recall-eval.js';
import { dirsFor, type EvalSet } from './recall-eval-set.js';

const DIRECT = 1;
const HUB = 0.6;
const NEIGHBOUR = 0.5;
/** Named in more memories than this of its directory: a hub. */
const HUB_MEMORIES = 3;

interface DirGraph {
  /** Entity key (its content words, as the analyser gives them) → memories naming it. */
  readonly memories: Map<string, Set<string>>;
  /** Entity key → keys it has a relation with, either way. */
  readonly neighbours: Map<string, Set<string>>;
}

/** An entity's key: its words as recall's analyser reads them; a path is also found by its base name. */
function keysOf(name: string): string[] {
  const whole = words(name);
  const base = name.includes('/') ? words(name.split('/').filter(Boolean).pop() ?? '') : '';
  return [...new Set([whole, base].filter((key) => key.length > 0))];
}

function words(text: string): string {
  // Parts only: the analyser also emits a whole identifier before its parts, which would stop
  // a multi-word name from matching as a run.
  return analyze(text.replace(/[_./\-:@#]/g, ' ')).join(' ');
}

export function sidecarGraphRanker(set: EvalSet): Ranker {
  const graphs = new Map<string, DirGraph>();
  for (const [slug, docs] of set.dirs) {
    const graph: DirGraph = { memories: new Map(), neighbours: new Map() };
    const link = (a: string, b: string) => {
      if (a === b) return;
      const set = graph.neighbours.get(a) ?? new Set();
      set.add(b);
      graph.neighbours.set(a, set);
    };
    for (const doc of docs) {
      const sidecar = set.graphs.get(doc.id);
      if (!sidecar) continue;
      for (const entity of sidecar.entities) {
        for (const key of keysOf(entity.name)) {
          const named = graph.memories.get(key) ?? new Set();
          named.add(doc.id);
          graph.memories.set(key, named);
        }
      }
      for (const relation of sidecar.relations) {
        for (const a of keysOf(relation.src)) for (const b of keysOf(relation.dst)) (link(a, b), link(b, a));
      }
    }
    graphs.set(slug, graph);
  }
  return {
    name: 'graph',
    rank(query) {
      const tokens = words(query.text).split(' ').filter(Boolean);
      const dirGraphs = dirsFor(query.project).flatMap((slug) => graphs.get(slug) ?? []);
      // Longest names first, so "connection pool" is matched and its "pool" is not matched again.
      const taken = new Array<boolean>(tokens.length).fill(false);
      const matched = new Set<string>();
      for (let n = Math.min(tokens.length, 6); n >= 1; n--) {
        for (let i = 0; i + n <= tokens.length; i++) {
          if (taken.slice(i, i + n).some(Boolean)) continue;
          const key = tokens.slice(i, i + n).join(' ');
          if (!dirGraphs.some((g) => g.memories.has(key))) continue;
          matched.add(key);
          taken.fill(true, i, i + n);
        }
      }
      const direct = new Map<string, number>();
      const neighbour = new Map<string, number>();
      for (const graph of dirGraphs) {
        for (const key of matched) {
          const named = graph.memories.get(key);
          if (!named) continue;
          const hub = named.size > HUB_MEMORIES;
          for (const id of named) direct.set(id, (direct.get(id) ?? 0) + (hub ? HUB : DIRECT));
          if (hub) continue;
          for (const next of graph.neighbours.get(key) ?? []) {
            const via = graph.memories.get(next);
            if (!via || via.size > HUB_MEMORIES) continue;
            for (const id of via) neighbour.set(id, NEIGHBOUR);
          }
        }
      }
      for (const [id, score] of neighbour) if (!direct.has(id)) direct.set(id, score);
      return [...direct]
        .map(([id, score]) => ({ id, score }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
  };
}
