import { canWriteBack, parseMemoryFile, renderMemoryFile, type MemoryFileContent } from '../../memories/memory-file.js';
import { MEMORY_ID_FIELD } from '../../memories/memory-from-file.js';
import { strength } from '../../memories/scores.js';
import type { FileOp } from '../file-ops.js';
import { entriesOf, typedRow, type MemoriesRow, type ScanRows } from './memories-rows.js';
import type { DirEntry, DirRow, MemoryRow } from './memory-row.js';

export { MEMORY_ID_FIELD };
/** Longest description an index line shows. */
const INDEX_DESCRIPTION = 150;

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
  if (typed?.kind === 'dir' && typed.row) return [{ kind: 'memory-index', dir: typed.row.dir, index: memoryIndex(typed.row, await entriesOf(scan, typed.row.dir)) }];
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

/** Active memories best first by strength as of the directory's time; archived ones newest first. */
export function memoryIndex(dir: DirRow, entries: readonly DirEntry[]) {
  const now = new Date(dir.asOf);
  const score = (entry: DirEntry) =>
    strength({ name: entry.name, type: entry.type, tier: entry.tier, confidence: entry.confidence, lastReinforced: entry.lastReinforced }, now);
  const shown = entries
    .filter((entry) => entry.status === 'active' && !entry.archived)
    .map((entry) => ({ entry, score: score(entry) }))
    .sort((a, b) => b.score - a.score || compare(a.entry.name, b.entry.name) || compare(a.entry.file, b.entry.file))
    .map(({ entry }) => ({ file: entry.file, description: oneLine(entry.description || entry.name) }));
  const archived = entries
    .filter((entry) => entry.archived)
    .sort((a, b) => compare(b.archived!.at, a.archived!.at) || compare(a.file, b.file))
    .map((entry) => ({
      file: `_archive/${entry.file}`,
      name: oneLine(entry.name).replace(/[[\]]/g, ''),
      note: oneLine(`archived ${entry.archived!.at.slice(0, 10)}: ${entry.archived!.reason}`),
    }));
  return {
    shown,
    archived,
    managed: entries.flatMap((entry) => [entry.file, `_archive/${entry.file}`]),
    replaces: entries.flatMap((entry) => entry.indexLines ?? []),
  };
}

/**
 * What the index shows of a memory is data: one line, no way to close the link or open markup.
 * Claude Code loads MEMORY.md into the prompt as it is, so `<` and `>` are written as `&lt;` and
 * `&gt;` (no `</system-reminder>` can close what holds it), `](` as `] (` (no link to another
 * file can be forged, which the merge would take for that file's line), and invisible format
 * characters (bidi overrides, zero-width) are dropped, so what a reader sees is what is there.
 */
function oneLine(text: string): string {
  const flat = text
    .replace(/[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = [...flat].length > INDEX_DESCRIPTION ? `${[...flat].slice(0, INDEX_DESCRIPTION - 1).join('')}…` : flat;
  return cut.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\]\(/g, '] (');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

