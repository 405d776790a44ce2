import { canWriteBack, parseMemoryFile, renderMemoryFile, type MemoryFileContent } from '../../memories/memory-file.js';
import { MEMORY_ID_FIELD } from '../../memories/memory-from-file.js';
import type { FileOp } from '../file-ops.js';
import { entriesOf, typedRow, type MemoriesRow, type ScanRows } from './memories-rows.js';
import type { MemoryRow } from './memory-row.js';
import { memoryIndex, rankedMemoryIndex } from './directory-index.js';

export { MEMORY_ID_FIELD };

/**
 * A memory row becomes its file, in its directory or in `_archive/`, and the other place is let
 * go of; a directory row becomes its part of MEMORY.md.
 */
export async function materializeMemories(key: string, row: MemoriesRow, scan: ScanRows): Promise<FileOp[]> {
  const typed = typedRow(key, row);
  if (typed?.kind === 'mem' && typed.row) {
    const memory = typed.row;
    const active = `${memory.dir}/${memory.file}`;
    const archived = `${memory.dir}/_archive/${memory.file}`;
    const content = renderMemoryFile(memoryFileContent(memory));
    const ops: FileOp[] = memory.archived
      ? [{ kind: 'write', path: archived, content }, { kind: 'retire', path: active, content }]
      : [{ kind: 'write', path: active, content }, { kind: 'retire', path: archived, content }];
    // The graph stays beside the memory's name wherever the file is: it says what the memory is about.
    if (memory.graph) ops.push({ kind: 'write', path: graphSidecarPath(memory.dir, memory.file), content: renderGraphSidecar(memory) });
    // An earlier telling took the memory over under its own name: engram's files of the old name go (a person's stay).
    for (const file of memory.movedFrom ?? []) {
      if (file === memory.file) continue;
      ops.push({ kind: 'retire', path: `${memory.dir}/${file}` }, { kind: 'retire', path: `${memory.dir}/_archive/${file}` }, { kind: 'retire', path: graphSidecarPath(memory.dir, file) });
    }
    return ops;
  }
  if (typed?.kind === 'dir' && typed.row) {
    const dir = typed.row;
    // The ranked rows give the lines the index can hold; the merge asks for every entry only
    // when it would look further (a file with no record of engram's lines, many hand-written ones).
    return [{ kind: 'memory-index', dir: dir.dir, index: await rankedMemoryIndex(dir, scan), full: async () => memoryIndex(dir, await entriesOf(scan, dir.dir)) }];
  }
  return [];
}

/** `_graph/<file>.json` beside a memory: the entities and relations it names, for the graph projection and recall. */
export function graphSidecarPath(dir: string, file: string): string {
  return `${dir}/_graph/${file}.json`;
}

function renderGraphSidecar(memory: MemoryRow): string {
  return `${JSON.stringify({ memoryId: memory.id, file: memory.file, ...memory.graph }, null, 2)}\n`;
}

/**
 * Files the memory has taken in by an event (a recorded edit, an import in place): src/ownership
 * weighs them. None when the file there cannot be written back as it is (malformed frontmatter,
 * comments…): that one is read, and left alone, whoever made it.
 */
export function memoryTakenHashes(row: MemoriesRow, existing: string): ReadonlyArray<string | undefined> {
  // Only a memory row has files that take in hashes (the file sink asks for the rows it wrote a file for).
  const memory = row as MemoryRow;
  if (existing.startsWith('{') || !canWriteBack(parseMemoryFile(existing, memory.file))) return [];
  return [memory.editedHash, memory.sourceHash];
}

export function memoryFileContent(memory: MemoryRow): MemoryFileContent {
  return {
    name: memory.name,
    description: memory.description,
    type: memory.type,
    modified: memory.modified,
    tier: memory.tier,
    confidence: memory.confidence,
    reinforced: memory.reinforced,
    last_reinforced: memory.lastReinforced,
    status: memory.status,
    contradicts: memory.contradicts.length > 0 ? [...memory.contradicts] : undefined,
    superseded_by: memory.supersededBy,
    superseded_at: memory.supersededAt,
    pinned: memory.pinned ? true : undefined,
    implemented_in: typeof memory.implementedIn === 'string' || memory.implementedIn === undefined ? memory.implementedIn : [...memory.implementedIn],
    created: memory.created,
    origin_session: memory.originSession,
    extra: {
      top: memory.extra.top,
      metadata: [{ key: MEMORY_ID_FIELD, value: memory.id }, ...memory.extra.metadata.filter((field) => field.key !== MEMORY_ID_FIELD)],
    },
    body: memory.body,
  };
}
