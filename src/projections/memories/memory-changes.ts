import type { DomainEvent, EventOf } from '../../events/catalog.js';
import type { MemoryProposed } from '../../events/memory-events.js';
import { heldForUser } from '../../distill/addresses-agent.js';
import type { MemoryOrigin } from '../../events/memory-kinds.js';
import { GLOBAL_MEMORY_DIR, projectMemoryDir } from '../../paths.js';
import type { RowReader } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { findSameMemory, inForce } from './match-memory.js';
import { DIRS, dirKey, entryKey, fileKey, memoryKey, rowAt, tokenKey, type MemoriesRow } from './memories-rows.js';
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
  if (rowAt(state, memoryKey(data.memoryId))) return [];
  const global = data.scope === 'global' || event.project === '';
  const dir = global ? GLOBAL_MEMORY_DIR : projectMemoryDir(event.project);
  const dirRow: DirRow = rowAt(state, dirKey(dir)) ?? { dir, project: global ? '' : event.project, asOf: event.ts };
  // A lesson said again is the same memory, said once more: not a second file.
  if (options.matchSame ?? (data.origin !== 'import' && data.origin !== 'user')) {
    const same = findSameMemory(state, dir, data.type, data);
    if (same !== undefined) return update(state, event, same, (row) => reinforce(row, event.ts, data.origin));
  }
  // A file already adopted where it is (an import and the reconciler both saw it) is that memory's, not a second one.
  if (data.sourceHash !== undefined && data.fileName !== undefined) {
    const holder = rowAt(state, fileKey(dir, data.fileName));
    const held = holder === undefined ? undefined : rowAt(state, memoryKey(holder));
    if (held?.file === data.fileName && held.sourceHash === data.sourceHash) return [];
  }
  const created = data.created ?? event.ts;
  const row: MemoryRow = {
    id: data.memoryId,
    dir,
    project: dirRow.project,
    file: fileNameFor(data.name, data.fileName, (lowercased) => rowAt(state, fileKey(dir, lowercased)) !== undefined),
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
  const changes = withEntry(state, dirRow, undefined, row, event.ts);
  changes.push(rowChange(fileKey(dir, row.file), row.id));
  const dirs = rowAt(state, DIRS) ?? [];
  if (!dirs.includes(dirKey(dir))) changes.push(rowChange(DIRS, [...dirs, dirKey(dir)].sort()));
  return changes;
}

export function reinforce(row: MemoryRow, at: string, by?: MemoryOrigin): MemoryRow {
  if (row.archived) return row;
  // Corroborated by another session is not the user's word for text that speaks to the agent.
  const held = row.status === 'provisional' && heldForUser(row, by);
  return {
    ...row,
    confidence: Math.round(Math.min(1, row.confidence + REINFORCEMENT) * 100) / 100,
    reinforced: row.reinforced + 1,
    lastReinforced: at > row.lastReinforced ? at : row.lastReinforced,
    status: row.status === 'provisional' && !held ? 'active' : row.status,
    modified: at,
  };
}

/** Applies `next` to a memory; its entry, token rows and directory follow. Nothing when it is unknown or unchanged. */
export function update(state: RowReader<MemoriesRow>, event: DomainEvent, id: string, next: (row: MemoryRow) => MemoryRow): RowChange<MemoriesRow>[] {
  const row = rowAt(state, memoryKey(id));
  if (!row) return [];
  const changed = next(row);
  if (changed === row) return [];
  const dir = rowAt(state, dirKey(row.dir)) ?? { dir: row.dir, project: row.project, asOf: event.ts };
  return withEntry(state, dir, row, changed, event.ts);
}

/**
 * The memory's row, its entry, the token rows whose membership it changed (only what is in
 * force is indexed, under its type) and its directory's time.
 */
function withEntry(state: RowReader<MemoriesRow>, dir: DirRow, before: MemoryRow | undefined, after: MemoryRow, at: string): RowChange<MemoriesRow>[] {
  const entry = dirEntry(after);
  const changes: RowChange<MemoriesRow>[] = [
    rowChange(memoryKey(after.id), after),
    rowChange(entryKey(after.dir, after.id), entry),
    rowChange(dirKey(dir.dir), at > dir.asOf ? { ...dir, asOf: at } : dir),
  ];
  const old = before === undefined ? undefined : (rowAt(state, entryKey(before.dir, before.id)) ?? dirEntry(before));
  const was = indexed(old);
  const now = indexed(entry);
  for (const token of was.tokens) {
    if (was.type === now.type && now.tokens.has(token)) continue;
    const key = tokenKey(after.dir, was.type!, token);
    const ids = (rowAt(state, key) ?? []).filter((id) => id !== after.id);
    changes.push(rowChange(key, ids.length > 0 ? ids : null));
  }
  for (const token of now.tokens) {
    if (was.type === now.type && was.tokens.has(token)) continue;
    const key = tokenKey(after.dir, now.type!, token);
    changes.push(rowChange(key, insertSorted(rowAt(state, key) ?? [], after.id)));
  }
  return changes;
}

function indexed(entry: DirEntry | undefined): { type: string | undefined; tokens: ReadonlySet<string> } {
  return entry && inForce(entry) ? { type: entry.type, tokens: new Set(entry.tokens) } : { type: undefined, tokens: new Set() };
}

function insertSorted(ids: readonly string[], id: string): readonly string[] {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return ids[lo] === id ? ids : [...ids.slice(0, lo), id, ...ids.slice(lo)];
}
