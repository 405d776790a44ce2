import type { DomainEvent, EventOf } from '../../events/catalog.js';
import type { MemoryProposed } from '../../events/memory-events.js';
import { heldForUser } from '../../distill/addresses-agent.js';
import type { MemoryOrigin } from '../../events/memory-kinds.js';
import { GLOBAL_MEMORY_DIR, projectMemoryDir } from '../../paths.js';
import type { RowReader } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { indexRows, reshelved } from './directory-index.js';
import { findSameMemory, inForce } from './match-memory.js';
import { DIRS, aliasKey, dirKey, entryKey, fileKey, memoryKey, rowAt, type MemoriesRow } from './memories-rows.js';
import { addPosting, removePosting } from './token-postings.js';
import { dirEntry, fileNameFor, type DirEntry, type DirRow, type MemoryRow } from './memory-row.js';

/**
 * The changes every kind of memory event makes to the memories projection's rows (see
 * memories-rows.ts): propose, reinforce, update. Shared by the projector's cases and the
 * promotion gate. Each touches the rows of the one memory it changes, never its directory's
 * other memories.
 */

/** How much a memory's confidence rises each time it is said again. */
const REINFORCEMENT = 0.1;

export type Proposal = EventOf<typeof MemoryProposed>['data'];

export interface ProposeOptions {
  /** Whether a memory of its directory that says the same is reinforced instead. Default: unless imported or the user's. */
  matchSame?: boolean;
}

export function propose(state: RowReader<MemoriesRow>, event: DomainEvent, data: Proposal, options: ProposeOptions = {}): RowChange<MemoriesRow>[] {
  if (rowAt(state, memoryKey(data.memoryId)) || rowAt(state, aliasKey(data.memoryId))) return [];
  const global = data.scope === 'global' || event.project === '';
  const dir = global ? GLOBAL_MEMORY_DIR : projectMemoryDir(event.project);
  const dirRow: DirRow = rowAt(state, dirKey(dir)) ?? { dir, project: global ? '' : event.project, asOf: event.ts };
  // A lesson said again is the same memory, said once more: not a second file.
  if (options.matchSame ?? (data.origin !== 'import' && data.origin !== 'user')) {
    const same = findSameMemory(state, dir, data.type, data);
    if (same !== undefined) {
      const held = rowAt(state, memoryKey(same))!;
      // The earlier telling is the memory, whichever this machine folded first: two machines that
      // heard the lesson once each agree on its id, its file and where it came from.
      if (tellsEarlier(data.created ?? event.ts, data.memoryId, held)) return takeOver(state, event, data, dirRow, held);
      return [...update(state, event, same, (row) => reinforce(row, event.ts, data.origin, tellingStamp(data.created ?? event.ts))), rowChange(aliasKey(data.memoryId), same)];
    }
  }
  // A file already adopted where it is (an import and the reconciler both saw it) is that memory's, not a second one.
  if (data.sourceHash !== undefined && data.fileName !== undefined) {
    const holder = rowAt(state, fileKey(dir, data.fileName));
    const held = holder === undefined ? undefined : rowAt(state, memoryKey(holder));
    if (held?.file === data.fileName && held.sourceHash === data.sourceHash) return [];
  }
  const row = proposedRow(event, data, dirRow, (lowercased) => rowAt(state, fileKey(dir, lowercased)) !== undefined);
  const changes = withEntry(state, dirRow, undefined, row, event.ts);
  changes.push(rowChange(fileKey(dir, row.file), row.id));
  const dirs = rowAt(state, DIRS) ?? [];
  if (!dirs.includes(dirKey(dir))) changes.push(rowChange(DIRS, [...dirs, dirKey(dir)].sort()));
  return changes;
}

/** The row a proposal makes of a new memory in `dirRow`'s directory. */
function proposedRow(event: DomainEvent, data: Proposal, dirRow: DirRow, taken: (lowercased: string) => boolean): MemoryRow {
  const created = data.created ?? event.ts;
  return {
    id: data.memoryId,
    dir: dirRow.dir,
    project: dirRow.project,
    file: fileNameFor(data.name, data.fileName, taken),
    name: data.name,
    description: data.description,
    type: data.type,
    tier: data.tier,
    body: data.body,
    // Instructions to the agent from tool output, a file or an LLM wait for the user's word.
    status: data.status === 'active' && heldForUser(data) ? 'provisional' : data.status,
    confidence: data.confidence,
    reinforced: data.reinforced ?? 0,
    lastReinforced: data.lastReinforced ?? created,
    created,
    modified: event.ts,
    pinned: data.pinned ?? false,
    contradicts: data.contradicts ?? [],
    supersededBy: undefined,
    supersededAt: undefined,
    origin: data.origin,
    originSession: event.session === '' ? undefined : event.session,
    archived: undefined,
    extra: (data.extra as MemoryRow['extra'] | undefined) ?? { top: [], metadata: [] },
    sourceHash: data.sourceHash,
    editedHash: undefined,
    verification: undefined,
    ...(data.indexLines ? { indexLines: data.indexLines } : {}),
    ...(data.implementedIn !== undefined ? { implementedIn: data.implementedIn } : {}),
  };
}

/** Whether a telling made at `created` under `id` comes before the one that made `row`: by time, then by id (a total order every machine shares). */
function tellsEarlier(created: string, id: string, row: Pick<MemoryRow, 'created' | 'id'>): boolean {
  return created < row.created || (created === row.created && id < row.id);
}

/** Fields a recorded edit may change, which an earlier telling does not take back. */
export const EDITABLE_FIELDS = ['name', 'description', 'type', 'tier', 'body', 'confidence', 'pinned', 'contradicts', 'extra', 'implementedIn'] as const;

/**
 * An earlier telling of a memory this machine already holds becomes the memory: its id, file,
 * text, time and session, as on a machine that folded it first, with the later telling and
 * every reinforcement since counted as reinforcements of it. What events naming the memory did
 * (edits, pins, archiving, verification) stays. The old id becomes an alias of the new one.
 */
function takeOver(state: RowReader<MemoriesRow>, event: DomainEvent, data: Proposal, dirRow: DirRow, held: MemoryRow): RowChange<MemoriesRow>[] {
  const dir = held.dir;
  const pending = new Map<string, MemoriesRow | null>();
  const overlay: RowReader<MemoriesRow> = { get: (key) => (pending.has(key) ? (pending.get(key) ?? undefined) : state.get(key)) };
  const set = (change: RowChange<MemoriesRow>) => pending.set(change.key, change.row);
  // The held memory lets go of its rows first, so the new one's index rows are computed over them.
  set(rowChange<MemoriesRow>(memoryKey(held.id), null));
  set(rowChange<MemoriesRow>(entryKey(dir, held.id), null));
  set(rowChange<MemoriesRow>(fileKey(dir, held.file), null));
  const heldEntry = rowAt(state, entryKey(dir, held.id)) ?? dirEntry(held);
  const unplaced = [...indexRows(dir, heldEntry).keys()];
  for (const key of unplaced) set(rowChange<MemoriesRow>(key, null));
  const dirLeft = reshelved(rowAt(state, dirKey(dir)) ?? dirRow, unplaced, []);
  const was = indexed(heldEntry);
  for (const [token, chunk] of was.tokens) for (const change of removePosting(overlay, dir, was.type!, token, held.id, chunk)) set(change);
  const founder = proposedRow(event, data, dirRow, (lowercased) => rowAt(overlay, fileKey(dir, lowercased)) !== undefined);
  const edited = new Set(held.edited ?? []);
  const kept = Object.fromEntries(EDITABLE_FIELDS.filter((field) => edited.has(field)).map((field) => [field, held[field]]));
  // The later telling was one reinforcement, and each of the held memory's own came after it.
  let row: MemoryRow = reinforce(founder, held.created, held.origin, tellingStamp(held.created));
  for (let i = 0; i < held.reinforced; i++) row = reinforce(row, held.lastReinforced, held.origin);
  row = {
    ...row,
    ...kept,
    // The stamps the held memory's reinforcements carried: a later confidence edit counts only those after it.
    reinforcedAt: mergeStamps(held.reinforcedAt ?? [], [tellingStamp(held.created)]),
    ...(held.edits ? { edits: held.edits } : {}),
    status: held.status === 'superseded' ? held.status : row.status,
    pinned: held.pinned || founder.pinned,
    supersededBy: held.supersededBy,
    supersededAt: held.supersededAt,
    archived: held.archived,
    editedHash: held.editedHash,
    verification: held.verification,
    modified: later(held.modified, row.modified),
    lastReinforced: later(held.lastReinforced, row.lastReinforced),
    ...(held.graph ? { graph: held.graph } : {}),
    ...(held.implementedIn !== undefined && !edited.has('implementedIn') ? { implementedIn: held.implementedIn } : {}),
    ...(held.edited ? { edited: held.edited } : {}),
    ...(held.file !== founder.file || held.movedFrom ? { movedFrom: [...new Set([...(held.movedFrom ?? []), held.file])].filter((file) => file !== founder.file) } : {}),
  };
  if (row.movedFrom?.length === 0) delete (row as { movedFrom?: unknown }).movedFrom;
  for (const change of withEntry(overlay, dirLeft, undefined, row, event.ts)) set(change);
  set(rowChange(fileKey(dir, row.file), row.id));
  set(rowChange(aliasKey(held.id), row.id));
  return [...pending].map(([key, value]) => rowChange(key, value));
}

/** The later of two times: a memory's dates follow its latest event, whatever order they were folded in. */
export function later(a: string, b: string): string {
  return a > b ? a : b;
}

/**
 * What orders two changes of one memory: the event's time. Two at the same time go in fold
 * order, which is each machine's own order for its own events (every machine keeps it); only two
 * machines' changes in the same millisecond are left to fold order. Not the event id: ids under
 * one fixed clock (ENGRAM_NOW, tests) are random, and a person's second edit would lose to the first.
 */
export function stampOf(event: Pick<DomainEvent, 'ts'>): string {
  return event.ts;
}

/** A telling that reinforces a memory: stamped by when it was made, the same whichever machine folds it. */
export function tellingStamp(created: string): string {
  return created;
}

/** Reinforcements that can still raise a confidence (from 0 to 1): older stamps than these never change it. */
const KEPT_STAMPS = Math.ceil(1 / REINFORCEMENT);

function mergeStamps(a: readonly string[], b: readonly string[]): readonly string[] {
  return [...a, ...b].sort().slice(-KEPT_STAMPS);
}

/** A confidence raised by one reinforcement. */
function raised(confidence: number): number {
  return Math.round(Math.min(1, confidence + REINFORCEMENT) * 100) / 100;
}

/**
 * A confidence a recorded edit set (stamped `stamp`), raised by each reinforcement of the memory
 * stamped after the edit: the same whether the reinforcements were folded before or after it
 * (one at the same time counts when folded after it, as in reinforce).
 */
export function editedConfidence(row: MemoryRow, value: number, stamp: string): number {
  let confidence = value;
  for (const at of row.reinforcedAt ?? []) if (at > stamp) confidence = raised(confidence);
  return confidence;
}

/**
 * One more telling of a memory: counted whatever its state (a forgotten or archived memory
 * counts it in `_archive/`, so the count does not depend on whether the forget was folded
 * first). Its confidence rises unless a confidence edit stamped after it set it.
 */
export function reinforce(row: MemoryRow, at: string, by?: MemoryOrigin, stamp: string = at): MemoryRow {
  // Corroborated by another session is not the user's word for text that speaks to the agent.
  const held = row.status === 'provisional' && heldForUser(row, by);
  return {
    ...row,
    confidence: (row.edits?.confidence ?? '') <= stamp ? raised(row.confidence) : row.confidence,
    reinforced: row.reinforced + 1,
    reinforcedAt: mergeStamps(row.reinforcedAt ?? [], [stamp]),
    lastReinforced: later(at, row.lastReinforced),
    status: row.status === 'provisional' && !held ? 'active' : row.status,
    // The latest of its events, whatever order they were folded in.
    modified: later(at, row.modified),
  };
}

/** The id a memory is held under now: `id` itself, or the memory a proposal of that id became part of. */
export function heldId(state: RowReader<MemoriesRow>, id: string): string {
  // An alias names a memory that may itself have been taken over since: a short chain, followed to its end.
  for (let hops = 0; hops < 32 && !rowAt(state, memoryKey(id)); hops++) {
    const next = rowAt(state, aliasKey(id));
    if (next === undefined) break;
    id = next;
  }
  return id;
}

/** Applies `next` to a memory; its entry, token rows and directory follow. Nothing when it is unknown or unchanged. */
export function update(state: RowReader<MemoriesRow>, event: DomainEvent, id: string, next: (row: MemoryRow) => MemoryRow): RowChange<MemoriesRow>[] {
  const row = rowAt(state, memoryKey(heldId(state, id)));
  if (!row) return [];
  const changed = next(row);
  if (changed === row) return [];
  const dir = rowAt(state, dirKey(row.dir)) ?? { dir: row.dir, project: row.project, asOf: event.ts };
  return withEntry(state, dir, row, changed, event.ts);
}

/**
 * The memory's row, its entry, its rows for the directory's index (directory-index.ts), the
 * token rows whose membership it changed (only what is in force is indexed, under its type)
 * and its directory's time.
 */
function withEntry(state: RowReader<MemoriesRow>, dir: DirRow, before: MemoryRow | undefined, after: MemoryRow, at: string): RowChange<MemoriesRow>[] {
  const fresh = dirEntry(after);
  const changes: RowChange<MemoriesRow>[] = [rowChange(memoryKey(after.id), after)];
  const old = before === undefined ? undefined : (rowAt(state, entryKey(before.dir, before.id)) ?? dirEntry(before));
  // Its place in MEMORY.md: the rows its entry keeps there, the old ones let go of, counted on the directory's shelves.
  const placed = indexRows(after.dir, fresh);
  const was = [...indexRows(before?.dir ?? after.dir, old).keys()];
  for (const key of was) if (!placed.has(key)) changes.push(rowChange<MemoriesRow>(key, null));
  for (const [key, row] of placed) changes.push(rowChange(key, row));
  const shelved = reshelved(dir, was, placed.keys());
  changes.push(rowChange(dirKey(dir.dir), at > dir.asOf ? { ...shelved, asOf: at } : shelved));
  const held = indexed(old);
  const now = indexed(fresh);
  for (const [token, chunk] of held.tokens) {
    if (held.type === now.type && now.tokens.has(token)) continue;
    changes.push(...removePosting(state, after.dir, held.type!, token, after.id, chunk));
  }
  const chunkOf = new Map<string, number | undefined>();
  for (const token of now.tokens.keys()) {
    if (held.type === now.type && held.tokens.has(token)) chunkOf.set(token, held.tokens.get(token));
    else {
      const added = addPosting(state, after.dir, now.type!, token, after.id);
      changes.push(...added.changes);
      chunkOf.set(token, added.chunk);
    }
  }
  const chunks = fresh.tokens.map((token) => chunkOf.get(token));
  // A chunk not known (an entry from before chunks) is looked for when the token is let go of.
  const entry = now.type === undefined || chunks.includes(undefined) ? fresh : { ...fresh, chunks: chunks as number[] };
  changes.push(rowChange(entryKey(after.dir, after.id), entry));
  return changes;
}

/** The tokens an entry is indexed under while in force, each with the chunk that holds it (undefined: not known). */
function indexed(entry: DirEntry | undefined): { type: string | undefined; tokens: ReadonlyMap<string, number | undefined> } {
  if (!entry || !inForce(entry)) return { type: undefined, tokens: new Map() };
  return { type: entry.type, tokens: new Map(entry.tokens.map((token, i) => [token, entry.chunks?.[i]])) };
}
