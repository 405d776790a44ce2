import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../errors.js';
import { GraphIndexFile } from '../projections/graph/graph-index.js';
import { graphViewPath } from '../projections/view-paths.js';

/** A directory's graph index, loaded: the file as written, and its look-up as a map. */
export interface LoadedGraph {
  readonly index: GraphIndexFile;
  /** Every key an entity is found by → positions in `index.entities`. */
  readonly lookup: ReadonlyMap<string, readonly number[]>;
  /** The first word of every key: a prompt's word that starts none is passed over at once, so a long prompt costs one set look-up a word. */
  readonly firstWords: ReadonlySet<string>;
}

/** Makes the look-up map of an index (the file keeps it as a sorted list). */
export function loadedGraph(index: GraphIndexFile): LoadedGraph {
  return { index, lookup: new Map(index.lookup), firstWords: new Set(index.lookup.map(([key]) => key.split(' ', 1)[0]!)) };
}

/**
 * The graph index of a project's memory directory (or the global one, project '') under
 * `<home>/views`; undefined when none is written yet (no memory in force names anything). A file
 * that is not an index is refused with GRAPH_INDEX_INVALID, never half read.
 */
export function readGraphIndex(views: string, project: string): LoadedGraph | undefined {
  const path = join(views, graphViewPath(project));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new EngramError('GRAPH_INDEX_INVALID', `cannot read the graph index ${path}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new EngramError('GRAPH_INDEX_INVALID', `the graph index ${path} is not JSON`, { cause: err });
  }
  const parsed = GraphIndexFile.safeParse(json);
  if (!parsed.success) throw new EngramError('GRAPH_INDEX_INVALID', `the graph index ${path} is not one engram wrote`, { cause: parsed.error });
  const index = parsed.data;
  const inRange = (n: number, length: number) => Number.isInteger(n) && n >= 0 && n < length;
  const sound =
    index.entities.every(
      (e) => e.memories.every((m) => inRange(m, index.memories.length)) && [...e.out, ...e.in].every(([, n]) => inRange(n, index.entities.length)),
    ) && index.lookup.every(([, found]) => found.every((n) => inRange(n, index.entities.length)));
  if (!sound) throw new EngramError('GRAPH_INDEX_INVALID', `the graph index ${path} refers to entities or memories it does not have`);
  return loadedGraph(index);
}

/** The graphs a prompt in `project` may recall from: the project's, then the global one. */
export function readGraphIndexes(views: string, project: string): LoadedGraph[] {
  return [...(project === '' ? [] : [readGraphIndex(views, project)]), readGraphIndex(views, '')].filter((g): g is LoadedGraph => g !== undefined);
}
