import { contentHash } from '../content-hash.js';
import type { Envelope } from '../events/envelope.js';
import { MemoryEdited, MemoryForgotten, MemoryProposed } from '../events/memory-events.js';
import { indexDescriptions } from '../memories/index-descriptions.js';
import { inlineEntries } from '../memories/inline-entries.js';
import { canWriteBack, parseMemoryFile, renderMemoryFile } from '../memories/memory-file.js';
import { memoryFromFile, type FileMemory } from '../memories/memory-from-file.js';
import type { MemoryDir, MemoryFileEntry } from '../memories/read-memory-dir.js';
import { memoryFileContent } from '../projections/memories/materialize-memories.js';
import { isReservedFileName, type MemoryRow } from '../projections/memories/memory-row.js';
import type { OwnershipRecord } from '../ownership/ownership-record.js';
import { whoseFile } from '../ownership/whose-file.js';
import { STATS_ORIGIN_VALUE } from '../projections/stats-render.js';

/** A file someone wrote by hand and engram adopts: their own words, stated, not inferred. */
export const ADOPTED_CONFIDENCE = 0.8;
/** Why a memory whose file was deleted by hand is archived (see reconcileMemoryDir). */
export const DELETED_BY_HAND = 'deleted by hand';

/** One memory directory as the memories projection's committed state has it. */
export interface KnownDir {
  /** Relative to Claude Code's config directory. */
  dir: string;
  /** Its project; '' for the global directory. */
  project: string;
  /** Its memories. */
  rows: readonly MemoryRow[];
  /** What engram wrote at each path (src/ownership's ledger), by path relative to the config directory. */
  owners: ReadonlyMap<string, OwnershipRecord>;
  /** Paths other projections write there (the stats files): never memories. */
  othersPaths: ReadonlySet<string>;
}

export interface ReconcileInput {
  known: KnownDir;
  /** The directory as it is now (readMemoryDir). */
  read: MemoryDir;
  /** Files (relative to the directory) the agent wrote or edited with its tools: their changes are the agent's. */
  agentFiles: ReadonlySet<string>;
  /** The time the events are stamped with. */
  at: string;
  /** Files that changed while the directory was read: there, but looked at in the next round. */
  changing?: ReadonlySet<string>;
}

export interface ReconcileResult {
  events: Envelope[];
  /** What was seen and left alone, one line each, for the command's output. */
  notes: string[];
}

/**
 * What changed in one memory directory since engram last projected it, as events (DESIGN.md
 * "Storage": a hand edit becomes an event, so it is never overwritten and survives a rebuild):
 *
 * - a memory file whose content is not what engram would write there (nor the content an
 *   earlier edit or import recorded) was edited: MemoryEdited, by the agent when its tools wrote
 *   the file, else by hand. A file that cannot be written back as it is (malformed frontmatter,
 *   comments…) is reported and left alone, not recorded: recording it would let engram rewrite it;
 * - a `*.md` file nobody projected is adopted in place: MemoryProposed (origin user or agent)
 *   with its name and hash, so the projection knows the file as that memory's;
 * - a memory file engram wrote that is gone was deleted by hand: MemoryForgotten, which archives
 *   the memory, its content rewritten from the log into `_archive/`. Re-creating the file would
 *   fight the person who deleted it; dropping the memory would delete something (invariant 6).
 *   `engram memories restore` brings it back;
 * - a standalone MEMORY.md (inline entries only, no links) is converted to the index layout: each
 *   entry becomes a memory whose index line takes the entry's place (MemoryProposed.indexLines).
 *
 * Every id derives from the path and the content's hash, so a round done twice stores its events
 * once, and a second round over an unchanged directory finds nothing. Pure: the caller reads.
 */
export function reconcileMemoryDir(input: ReconcileInput): ReconcileResult {
  const { known, read, agentFiles, at } = input;
  const { dir } = known;
  const events: Envelope[] = [];
  const notes: string[] = [];
  const envelope = (id: string, definition: { type: string; schemaVersion: number }, data: unknown): Envelope =>
    ({ id, type: definition.type, schemaVersion: definition.schemaVersion, ts: at, session: '', project: known.project, data });
  const current = new Map<string, MemoryRow>();
  const elsewhere = new Set<string>();
  for (const row of known.rows) {
    current.set(row.archived ? `_archive/${row.file}` : row.file, row);
    elsewhere.add(row.archived ? row.file : `_archive/${row.file}`);
  }
  const ids = new Set(known.rows.map((row) => row.id));
  const taken = new Set(known.rows.map((row) => row.file.toLowerCase()));
  const described = indexDescriptions(read.index?.lines);

  for (const file of [...read.memories, ...read.archived]) {
    const path = `${dir}/${file.fileName}`;
    if (known.othersPaths.has(path) || isStatsFile(file)) continue;
    const by = agentFiles.has(file.fileName) ? 'agent' : 'hand';
    const row = current.get(file.fileName);
    if (row) {
      const record = known.owners.get(path);
      // Engram's own bytes, or bytes the memory already took in: nothing happened. The one question, asked of src/ownership.
      const fresh = record === undefined ? contentHash(renderMemoryFile(memoryFileContent(row))) : undefined;
      if (whoseFile(file.hash, record, { fresh, taken: [row.editedHash, row.sourceHash] }) !== 'user') continue;
      if (!canWriteBack(file.parsed)) {
        notes.push(`left alone: ${path}: changed, but ${file.parsed.malformed ?? file.parsed.readOnly}; engram will not rewrite it`);
        continue;
      }
      const read = memoryFromFile(file.parsed);
      if ('why' in read) {
        notes.push(`left alone: ${path}: changed, but ${read.why}`);
        continue;
      }
      const changed = changedFields(read.memory, baseOf(record, row, file.fileName));
      // From what to what: an edit undone later (A to B, then back to A) is a change of its own, not the first one again.
      const from = record?.hash ?? fresh ?? '';
      events.push(envelope(`edited:${contentHash(`${row.id}\0${from}`)}:${file.hash}`, MemoryEdited, { ...editedData(row, read.memory, by, file.hash), changed }));
      notes.push(`edited by ${by === 'agent' ? 'the agent' : 'hand'}: ${path}`);
      continue;
    }
    if (elsewhere.has(file.fileName) || file.fileName.startsWith('_archive/')) continue;
    if (isReservedFileName(file.fileName) || taken.has(file.fileName.toLowerCase())) {
      // Adopted, it would be written under another name: a copy, not the file in place.
      notes.push(`not adopted: ${path}: the name is engram's own or another memory's`);
      continue;
    }
    const adopted = memoryFromFile(file.parsed);
    if ('why' in adopted) {
      notes.push(`not adopted: ${path}: ${adopted.why}`);
      continue;
    }
    if (adopted.memory.memoryId !== undefined && ids.has(adopted.memory.memoryId)) continue;
    if (adopted.memory.description === '') adopted.memory.description = described.get(file.fileName) ?? '';
    if (file.fileName.length > 200) {
      notes.push(`not adopted: ${path}: a file name over 200 characters`);
      continue;
    }
    const id = `adopted:${contentHash(`${dir}\0${file.fileName}\0${file.hash}`)}`;
    const origin = by === 'agent' ? 'agent' : 'user';
    events.push(envelope(id, MemoryProposed, { ...proposalFromFile(adopted.memory, known.project, id, origin), fileName: file.fileName, sourceHash: file.hash }));
    notes.push(`adopted (${origin === 'agent' ? 'written by the agent' : 'new by hand'}): ${path}${file.parsed.malformed ? ` (read as type unknown: ${file.parsed.malformed})` : ''}`);
  }

  const present = new Set([...read.memories, ...read.archived].map((file) => file.fileName));
  for (const name of input.changing ?? []) present.add(name);
  for (const unreadable of read.unreadable) {
    present.add(unreadable.fileName);
    notes.push(`unreadable, left alone: ${dir}/${unreadable.fileName}: ${unreadable.reason} (${unreadable.detail})`);
  }
  // Files engram wrote (the ledger has them) that are gone.
  const shown = known.rows.flatMap((row) => {
    const record = row.archived ? undefined : known.owners.get(`${dir}/${row.file}`);
    return record !== undefined ? [{ row, record }] : [];
  });
  const gone = shown.filter(({ row }) => !present.has(row.file));
  if (gone.length > 0 && gone.length === shown.length) {
    // Every file engram wrote here gone at once reads as a directory moved, restored from a
    // backup or seen under another CLAUDE_CONFIG_DIR, not as each memory deleted by hand.
    notes.push(`not recorded: all ${gone.length} memory files engram wrote in ${dir} are gone; \`engram memories forget\` archives memories one by one`);
  } else {
    for (const { row, record } of gone) {
      events.push(envelope(`deleted:${contentHash(row.id)}:${record.hash}`, MemoryForgotten, { memoryId: row.id, reason: DELETED_BY_HAND }));
      notes.push(`deleted by hand: ${dir}/${row.file} (archived: its content is kept in _archive/)`);
    }
  }

  if (read.index?.layout === 'standalone') {
    const converting = new Set(known.rows.flatMap((row) => row.indexLines ?? []));
    for (const entry of inlineEntries(read.index.lines)) {
      if (entry.lines.some((line) => converting.has(line))) continue;
      if (entry.lines.length > 50 || entry.lines.some((line) => line.length > 2000)) {
        notes.push(`kept inline in ${dir}/MEMORY.md: an entry too long to become a memory (line ${entry.lines[0]!.slice(0, 40)}…)`);
        continue;
      }
      const id = `inline:${contentHash(`${dir}\0${entry.lines.join('\n')}`)}`;
      const memory: FileMemory = { name: entry.name, description: entry.description, type: entry.type, body: entry.body, status: 'active', extra: { top: [], metadata: [] } };
      events.push(envelope(id, MemoryProposed, { ...proposalFromFile(memory, known.project, id, 'user'), indexLines: entry.lines }));
    }
    const converted = events.filter((event) => event.id.startsWith('inline:')).length;
    if (converted > 0) notes.push(`converted ${dir}/MEMORY.md to the index layout: ${converted} inline entries became memory files`);
  }
  return { events, notes };
}

function isStatsFile(file: MemoryFileEntry): boolean {
  return file.parsed.extra.metadata.some((field) => field.key === 'origin' && field.value === STATS_ORIGIN_VALUE);
}

/** MemoryProposed's data for what a file says; `project` '' makes it a global memory. */
export function proposalFromFile(memory: FileMemory, project: string, memoryId: string, origin: 'user' | 'agent' | 'import') {
  return {
    memoryId,
    origin,
    scope: project === '' ? 'global' : 'project',
    name: memory.name,
    description: memory.description,
    type: memory.type,
    ...(memory.tier !== undefined ? { tier: memory.tier } : {}),
    body: memory.body,
    status: memory.status,
    confidence: memory.confidence ?? ADOPTED_CONFIDENCE,
    ...(memory.pinned !== undefined ? { pinned: memory.pinned } : {}),
    ...(memory.contradicts !== undefined ? { contradicts: memory.contradicts } : {}),
    ...(memory.created !== undefined ? { created: memory.created } : {}),
    ...(memory.lastReinforced !== undefined ? { lastReinforced: memory.lastReinforced } : {}),
    ...(memory.reinforced !== undefined ? { reinforced: memory.reinforced } : {}),
    ...(memory.implementedIn !== undefined ? { implementedIn: memory.implementedIn } : {}),
    extra: memory.extra,
  };
}


/** The fields a hand edit can change, as MemoryEdited names them. */
const EDITABLE = ['name', 'description', 'type', 'tier', 'body', 'confidence', 'pinned', 'contradicts', 'extra', 'implementedIn'] as const;
type Editable = (typeof EDITABLE)[number];

/**
 * What the file said before the person edited it: the text engram last wrote there (the
 * ledger keeps it), else the memory as it is now.
 */
function baseOf(record: OwnershipRecord | undefined, row: MemoryRow, fileName: string): FileMemory {
  if (record?.text !== undefined) {
    const base = memoryFromFile(parseMemoryFile(record.text, fileName));
    if (!('why' in base)) return base.memory;
  }
  const content = memoryFileContent(row);
  return { ...row, contradicts: [...row.contradicts], extra: content.extra, implementedIn: typeof row.implementedIn === 'string' || row.implementedIn === undefined ? row.implementedIn : [...row.implementedIn], status: row.status === 'superseded' ? 'active' : row.status };
}

/**
 * The fields the person changed: only those are taken in, so that what engram changed meanwhile
 * (a reinforcement that came in while the edit waited) stays.
 */
function changedFields(edited: FileMemory, base: FileMemory): Editable[] {
  const value = (memory: FileMemory, field: Editable): unknown => {
    switch (field) {
      case 'pinned':
        return memory.pinned ?? false;
      case 'contradicts':
        return memory.contradicts ?? [];
      case 'implementedIn':
        return memory.implementedIn ?? null;
      case 'extra':
        // engram's own memory_id is not the person's to change.
        return { top: memory.extra.top, metadata: memory.extra.metadata.filter((field) => field.key !== 'memory_id') };
      default:
        return memory[field];
    }
  };
  return EDITABLE.filter((field) => JSON.stringify(value(edited, field)) !== JSON.stringify(value(base, field)));
}

function editedData(row: MemoryRow, memory: FileMemory, by: 'hand' | 'agent', hash: string) {
  return {
    memoryId: row.id,
    by,
    name: memory.name,
    description: memory.description,
    type: memory.type,
    ...(memory.tier !== undefined ? { tier: memory.tier } : {}),
    body: memory.body,
    ...(memory.confidence !== undefined ? { confidence: memory.confidence } : {}),
    // engram writes `pinned` only when true: a file without it says the memory is not pinned.
    pinned: memory.pinned ?? false,
    contradicts: memory.contradicts ?? [],
    // Like `pinned`: a file without it says there is none.
    implementedIn: memory.implementedIn ?? null,
    extra: memory.extra,
    contentHash: hash,
    ...(memory.modified !== undefined ? { modified: memory.modified } : {}),
  };
}
