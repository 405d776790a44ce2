import * as z from 'zod/mini';
import { aliasKeys, entityKey } from './entity-key.js';
import type { GraphDirRow } from './graph-row.js';

/** DESIGN.md "Recall": an entity named in more memories than this is a hub, weighed less and not expanded. */
export const HUB_MEMORIES = 3;

/**
 * The compact index file of one memory directory's graph, as the graph projection writes it and
 * the ranker (in the worker or a hook) loads it. Lists, not objects keyed by name, so a name like
 * `__proto__` is data and never a property; entities and memories are referred to by position.
 */
export const GraphIndexFile = z.object({
  schemaVersion: z.literal(1),
  dir: z.string(),
  project: z.string(),
  memories: z.array(z.object({ id: z.string(), file: z.string(), name: z.string() })),
  entities: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      type: z.string(),
      aliases: z.array(z.string()),
      /** Positions in `memories` of the memories that name it. */
      memories: z.array(z.number()),
      hub: z.boolean(),
      /** `[relation, position in entities]`, this entity the source… */
      out: z.array(z.tuple([z.string(), z.number()])),
      /** …and the destination. */
      in: z.array(z.tuple([z.string(), z.number()])),
    }),
  ),
  /** Every key an entity is found by (its own, its aliases') → positions in `entities`, sorted by key. */
  lookup: z.array(z.tuple([z.string(), z.array(z.number())])),
});
export type GraphIndexFile = z.infer<typeof GraphIndexFile>;

interface Gathered {
  forms: Map<string, number>;
  types: Map<string, number>;
  memories: Set<string>;
}

/**
 * The index of a directory's graph: one entity per key (names that differ only in case, spacing
 * or plural are one), its most used name and type, its other names as aliases, the memories
 * that name it (in an entity or a relation), its relations each way, and whether it is a hub.
 * Deterministic: everything is sorted, ties broken by code-unit order.
 */
export function buildGraphIndex(row: GraphDirRow): GraphIndexFile {
  const gathered = new Map<string, Gathered>();
  const relations = new Set<string>();
  // Names repeat across memories far more than they differ: each is folded once.
  const folded = new Map<string, { key: string; form: string }>();
  const note = (name: string, type: string | undefined, memoryId: string): string => {
    let seen = folded.get(name);
    if (seen === undefined) folded.set(name, (seen = { key: entityKey(name), form: name.trim().replace(/\s+/g, ' ') }));
    const { key, form } = seen;
    if (key === '') return key;
    let entity = gathered.get(key);
    if (!entity) gathered.set(key, (entity = { forms: new Map(), types: new Map(), memories: new Set() }));
    entity.forms.set(form, (entity.forms.get(form) ?? 0) + 1);
    if (type !== undefined) entity.types.set(type, (entity.types.get(type) ?? 0) + 1);
    entity.memories.add(memoryId);
    return key;
  };
  const memoryIds = [...row.memories.keys()].sort(byCodeUnit);
  for (const id of memoryIds) {
    const { graph } = row.memories.get(id)!;
    for (const entity of graph.entities) note(entity.name, entity.type, id);
    for (const relation of graph.relations) {
      const src = note(relation.src, undefined, id);
      const dst = note(relation.dst, undefined, id);
      if (src !== '' && dst !== '' && src !== dst) relations.add(`${src}\u0000${relation.rel}\u0000${dst}`);
    }
  }
  const keys = [...gathered.keys()].sort(byCodeUnit);
  const position = new Map(keys.map((key, i) => [key, i]));
  const memoryPosition = new Map(memoryIds.map((id, i) => [id, i]));
  const out = keys.map((): Array<[string, number]> => []);
  const into = keys.map((): Array<[string, number]> => []);
  for (const relation of [...relations].sort(byCodeUnit)) {
    const [src, rel, dst] = relation.split('\u0000') as [string, string, string];
    out[position.get(src)!]!.push([rel, position.get(dst)!]);
    into[position.get(dst)!]!.push([rel, position.get(src)!]);
  }
  const lookup = new Map<string, Set<number>>();
  const entities = keys.map((key, i) => {
    const entity = gathered.get(key)!;
    const name = mostUsed(entity.forms)!;
    const type = mostUsed(entity.types) ?? 'concept';
    const found = new Set([key]);
    for (const form of entity.forms.keys()) for (const alias of aliasKeys(form, type)) found.add(alias);
    for (const alias of found) {
      if (!lookup.has(alias)) lookup.set(alias, new Set());
      lookup.get(alias)!.add(i);
    }
    const aliases = new Set([...entity.forms.keys()].filter((form) => form !== name));
    for (const alias of found) if (alias !== key) aliases.add(alias);
    return {
      key,
      name,
      type,
      aliases: [...aliases].sort(byCodeUnit),
      memories: [...entity.memories].map((id) => memoryPosition.get(id)!).sort((a, b) => a - b),
      hub: entity.memories.size > HUB_MEMORIES,
      out: out[i]!,
      in: into[i]!,
    };
  });
  return {
    schemaVersion: 1,
    dir: row.dir,
    project: row.project,
    memories: memoryIds.map((id) => ({ id, file: row.memories.get(id)!.file, name: row.memories.get(id)!.name })),
    entities,
    lookup: [...lookup].sort(([a], [b]) => byCodeUnit(a, b)).map(([key, found]) => [key, [...found].sort((a, b) => a - b)]),
  };
}

/** One line of JSON: the index is read by programs, and a hook should parse as little as it can. */
export function renderGraphIndex(index: GraphIndexFile): string {
  return `${JSON.stringify(index)}\n`;
}

/** The most used of a tally; ties go to the first in code-unit order. */
function mostUsed(tally: ReadonlyMap<string, number>): string | undefined {
  let best: string | undefined;
  for (const [value, count] of tally) {
    const bestCount = best === undefined ? -1 : tally.get(best)!;
    if (count > bestCount || (count === bestCount && byCodeUnit(value, best!) < 0)) best = value;
  }
  return best;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
