import type { MemoryGraph } from '../../events/distill-events.js';
import type { MemoryRow } from '../memories/memory-row.js';

/** What one memory in force adds to its directory's graph: its names, and where its file is. */
export interface GraphContribution {
  readonly name: string;
  readonly file: string;
  readonly graph: MemoryGraph;
}

/**
 * One memory directory's graph, as the memories in force of that directory name it: their
 * contributions by memory id. A memory's change replaces its own contribution and nothing else.
 */
export interface GraphDirRow {
  readonly dir: string;
  /** Its project; '' for the global directory. */
  readonly project: string;
  readonly memories: ReadonlyMap<string, GraphContribution>;
}

/**
 * What a memory adds to the graph: nothing unless it is in force (active, not archived; a
 * provisional memory waits for corroboration, a superseded one is archived too) and names
 * something.
 */
export function contributionOf(memory: MemoryRow | undefined): GraphContribution | undefined {
  if (!memory || memory.status !== 'active' || memory.archived || !memory.graph) return undefined;
  if (memory.graph.entities.length === 0 && memory.graph.relations.length === 0) return undefined;
  return { name: memory.name, file: memory.file, graph: memory.graph };
}

/** Whether two contributions say the same, so an event that changed neither leaves the row alone. */
export function sameContribution(a: GraphContribution | undefined, b: GraphContribution | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.name === b.name && a.file === b.file && (a.graph === b.graph || JSON.stringify(a.graph) === JSON.stringify(b.graph));
}
