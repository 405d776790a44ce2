import type { LexicalDoc } from '../../indexes/bm25.js';
import { buildBm25 } from '../../indexes/bm25.js';
import { serializeLexicalIndex } from '../../indexes/lexical-index.js';
import type { FileOp } from '../file-ops.js';
import { isMemoryKey, memoriesProjector, type MemoriesRow } from '../memories/memories.js';
import type { MemoryRow } from '../memories/memory-row.js';
import { defineProjector, type RowReader } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { recallIndexViewPath } from '../view-paths.js';
import { isRecallable, recallDoc } from './recall-doc.js';

/** Bump when the recallable documents or the index file change for the same memory rows. */
const INDEX_VERSION = 2;

const RECALL = 'recall:';
const recallKey = (dir: string): string => RECALL + dir;

/** A memory directory's recallable memories, as the lexical index reads them. */
export interface RecallDirRow {
  readonly dir: string;
  readonly project: string;
  /** The latest event that changed which memories are here or what they say. */
  readonly asOf: string;
  readonly docs: ReadonlyMap<string, LexicalDoc>;
}

export type RecallIndexRow = MemoriesRow | RecallDirRow;

/**
 * The lexical recall index: the memories projection's own rows (its `evolve`, so which memory is
 * active, archived or superseded is decided in one place) under a lane of its own, plus one row
 * per memory directory holding its recallable memories, whose sink writes the directory's BM25
 * index file to `views/recall/`. A directory's row changes only when one of its memories'
 * indexed text or recallability does, so a maintenance tick that only rescored rewrites nothing.
 */
export const recallIndexProjector = defineProjector<RecallIndexRow>({
  name: 'recall-index',
  projectorVersion: memoriesProjector.projectorVersion * 1000 + INDEX_VERSION,
  handles: memoriesProjector.handles,
  evolve(state, event) {
    // Memories rows are only ever read as memories rows: the recall rows have keys of their own.
    const memoryChanges = memoriesProjector.evolve(state as RowReader<MemoriesRow>, event);
    // Most prompts teach nothing: no memory changed, so no directory's documents did.
    if (memoryChanges.length === 0) return [];
    const changes: RowChange<RecallIndexRow>[] = [...memoryChanges];
    const dirs = new Map<string, RecallDirRow>();
    for (const change of changes) {
      if (!isMemoryKey(change.key)) continue;
      // A memory row goes when an earlier telling takes the memory over under its own id (memory-changes.ts).
      const row = (change.row ?? state.get(change.key)) as MemoryRow | undefined;
      if (row === undefined) continue;
      const key = recallKey(row.dir);
      const dir = dirs.get(key) ?? (state.get(key) as RecallDirRow | undefined) ?? { dir: row.dir, project: row.project, asOf: event.ts, docs: new Map() };
      const before = dir.docs.get(row.id);
      const after = change.row !== null && isRecallable(row) ? recallDoc(row) : undefined;
      if (sameDoc(before, after)) continue;
      const docs = new Map(dir.docs);
      if (after) docs.set(row.id, after);
      else docs.delete(row.id);
      dirs.set(key, { ...dir, asOf: event.ts > dir.asOf ? event.ts : dir.asOf, docs });
    }
    for (const [key, dir] of dirs) changes.push(rowChange(key, dir));
    return changes;
  },
});

/** `views/recall/<project slug>.bm25` (or `global.bm25`) for directory rows; other rows have no file here. */
export function materializeRecallIndex(key: string, row: RecallIndexRow): FileOp[] {
  if (!key.startsWith(RECALL)) return [];
  const dir = row as RecallDirRow;
  const index = buildBm25([...dir.docs.values()]);
  return [{ kind: 'write', path: recallIndexViewPath(dir.project), content: serializeLexicalIndex(index, dir) }];
}

function sameDoc(a: LexicalDoc | undefined, b: LexicalDoc | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.file === b.file &&
    a.name === b.name &&
    a.description === b.description &&
    a.body === b.body &&
    a.confidence === b.confidence &&
    a.lastReinforced === b.lastReinforced &&
    a.halfLifeDays === b.halfLifeDays &&
    a.entities.length === b.entities.length &&
    a.entities.every((entity, i) => entity === b.entities[i])
  );
}
