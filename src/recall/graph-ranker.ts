import { entityKey, foldPlural, MAX_NAME_WORDS, words } from '../projections/graph/entity-key.js';
import type { LoadedGraph } from './loaded-graph.js';

/** DESIGN.md "Recall": a memory naming an entity the prompt names. */
export const DIRECT_WEIGHT = 1;
/** A memory naming a hub the prompt names: the hub says little about which memory is meant. */
export const HUB_WEIGHT = 0.6;
/** DESIGN.md "Recall": a memory naming a 1-hop neighbour of a named entity (hubs are not expanded). */
export const NEIGHBOUR_WEIGHT = 0.5;
/** A neighbour that is itself a hub passes on this share of the neighbour weight. */
export const HUB_NEIGHBOUR_SHARE = 0.5;

/** Words that never name an entity on their own, however a graph spells one. */
const NOT_NAMES = new Set(['a', 'an', 'and', 'are', 'be', 'do', 'for', 'i', 'in', 'is', 'it', 'no', 'not', 'of', 'on', 'or', 'the', 'this', 'that', 'to', 'we', 'with', 'yes', 'you']);

export interface EntityMatch {
  readonly key: string;
  readonly name: string;
  readonly type: string;
  readonly hub: boolean;
  /** The words of the prompt that named it. */
  readonly said: string;
}

export interface GraphHit {
  readonly id: string;
  readonly score: number;
  /** The entity of the prompt that brought it: what `[graph:postgres]` shows. */
  readonly entity: string;
  /** The neighbour it names, when it came one hop away from `entity`. */
  readonly via?: string;
  /** Its memory directory (relative to Claude Code's config directory) and file there. */
  readonly dir: string;
  readonly file: string;
}

export interface GraphRanking {
  /** The entities found in the prompt, in the order it names them. */
  readonly matched: readonly EntityMatch[];
  /** Memories best first; ties by id. */
  readonly hits: readonly GraphHit[];
}

/**
 * The graph signal: finds the entities a prompt names (longest names first, so `connection pool`
 * wins over `pool`; plurals folded; a path found by its base name too), then ranks the memories
 * that name them first and their 1-hop neighbours' memories after, at a lower weight. A hub (an
 * entity named in many memories) counts less and is not expanded. Pure over the loaded indexes.
 */
export function rankByGraph(graphs: readonly LoadedGraph[], prompt: string): GraphRanking {
  const tokens = words(prompt);
  const folded = tokens.map(foldPlural);
  const found = (key: string) => key.length >= 2 && !NOT_NAMES.has(key) && graphs.some((g) => g.lookup.has(key));
  const saidKeys: Array<{ key: string; said: string }> = [];
  for (let i = 0; i < tokens.length; ) {
    let taken = 0;
    if (graphs.some((g) => g.firstWords.has(folded[i]!))) {
      // Every name starting here, longest first: `connection pool` before `connection`.
      const keys: string[] = [];
      for (let n = 1, key = folded[i]!; n <= Math.min(MAX_NAME_WORDS, tokens.length - i); n++, key += ` ${folded[i + n - 1]}`) keys.push(key);
      for (let n = keys.length; n >= 1 && taken === 0; n--) {
        if (!found(keys[n - 1]!)) continue;
        saidKeys.push({ key: keys[n - 1]!, said: tokens.slice(i, i + n).join(' ') });
        taken = n;
      }
    }
    if (taken === 0 && tokens[i]!.includes('/')) {
      const base = entityKey(tokens[i]!.split(/[\\/]/).filter(Boolean).pop() ?? '');
      if (found(base)) saidKeys.push({ key: base, said: tokens[i]! });
    }
    i += Math.max(1, taken);
  }
  const matched: EntityMatch[] = [];
  const scores = new Map<string, { direct: number; neighbour: number; entity: string; best: number; via?: string; dir: string; file: string }>();
  const seen = new Set<string>();
  for (const { key, said } of saidKeys) {
    for (const graph of graphs) {
      const { index } = graph;
      for (const position of graph.lookup.get(key) ?? []) {
        const entity = index.entities[position]!;
        const identity = `${index.dir}\u0000${entity.key}`;
        if (seen.has(identity)) continue;
        seen.add(identity);
        matched.push({ key: entity.key, name: entity.name, type: entity.type, hub: entity.hub, said });
        const credit = (memory: number, weight: number, direct: boolean, via?: string) => {
          const { id, file } = index.memories[memory]!;
          const score = scores.get(id) ?? { direct: 0, neighbour: 0, entity: entity.name, best: 0, dir: index.dir, file };
          if (direct) score.direct += weight;
          else score.neighbour = Math.max(score.neighbour, weight);
          // The entity shown is the one that gave the most; a direct naming beats any neighbour.
          const strength = direct ? 10 + weight : weight;
          if (strength > score.best) Object.assign(score, { best: strength, entity: entity.name, via });
          scores.set(id, score);
        };
        const named = new Set(entity.memories);
        for (const memory of entity.memories) credit(memory, entity.hub ? HUB_WEIGHT : DIRECT_WEIGHT, true);
        if (entity.hub) continue;
        const neighbours = [...new Set([...entity.out, ...entity.in].map(([, n]) => n))];
        for (const n of neighbours) {
          const neighbour = index.entities[n]!;
          const weight = NEIGHBOUR_WEIGHT * (neighbour.hub ? HUB_NEIGHBOUR_SHARE : 1);
          for (const memory of neighbour.memories) if (!named.has(memory)) credit(memory, weight, false, neighbour.name);
        }
      }
    }
  }
  const hits: GraphHit[] = [...scores]
    .map(([id, s]) => ({ id, score: round(s.direct > 0 ? s.direct : s.neighbour), entity: s.entity, ...(s.direct > 0 || s.via === undefined ? {} : { via: s.via }), dir: s.dir, file: s.file }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { matched, hits };
}

function round(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}
