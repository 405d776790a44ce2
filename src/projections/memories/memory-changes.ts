import type { DomainEvent, EventOf } from '../../events/catalog.js';
import type { MemoryProposed } from '../../events/memory-events.js';
import { heldForUser } from '../../distill/addresses-agent.js';
import type { MemoryOrigin } from '../../events/memory-kinds.js';
import { GLOBAL_MEMORY_DIR, projectMemoryDir } from '../../paths.js';
import type { RowReader } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { findSameMemory } from './match-memory.js';
import { dirEntry, fileNameFor, type DirRow, type HygieneRow, type MemoryRow } from './memory-row.js';

/**
 * The memories projection's rows and the changes every kind of memory event makes to them:
 * propose, reinforce, update. Shared by the projector's cases and the promotion gate.
 */

const MEM = 'mem:';
const DIR = 'dir:';
/** Every memory directory's key, so a maintenance tick can rescore them all. */
export const DIRS = 'dirs';
/** When the maintenance tick last ran. */
export const MAINTAINED = 'maintained';
const HYGIENE = 'hygiene:';
export const hygieneKey = (dir: string): string => HYGIENE + dir;

export type MemoriesRow = MemoryRow | DirRow | HygieneRow | { readonly at: string } | readonly string[];

export const memoryKey = (id: string): string => MEM + id;
export const dirKey = (dir: string): string => DIR + dir;
export const isMemoryKey = (key: string): boolean => key.startsWith(MEM);
export const memoryIdOf = (key: string): string => key.slice(MEM.length);
export const isDirKey = (key: string): boolean => key.startsWith(DIR);

/** How much a memory's confidence rises each time it is said again. */
const REINFORCEMENT = 0.1;

export type Proposal = EventOf<typeof MemoryProposed>['data'];

export interface ProposeOptions {
  /** Whether a memory of its directory that says the same is reinforced instead. Default: unless imported or the user's. */
  matchSame?: boolean;
}

export function propose(state: RowReader<MemoriesRow>, event: DomainEvent, data: Proposal, options: ProposeOptions = {}): RowChange<MemoriesRow>[] {
  if (state.get(memoryKey(data.memoryId))) return [];
  const global = data.scope === 'global' || event.project === '';
  const dir = global ? GLOBAL_MEMORY_DIR : projectMemoryDir(event.project);
  const dirRow = (state.get(dirKey(dir)) as DirRow | undefined) ?? { dir, project: global ? '' : event.project, asOf: event.ts, entries: new Map() };
  // A lesson said again is the same memory, said once more: not a second file.
  if (options.matchSame ?? (data.origin !== 'import' && data.origin !== 'user')) {
    const same = findSameMemory(dirRow.entries, data.type, data);
    if (same !== undefined) return update(state, event, same, (row) => reinforce(row, event.ts, data.origin));
  }
  // A file already adopted where it is (an import and the reconciler both saw it) is that memory's, not a second one.
  if (data.sourceHash !== undefined && data.fileName !== undefined) {
    for (const [id, entry] of dirRow.entries) {
      if (entry.file !== data.fileName) continue;
      if ((state.get(memoryKey(id)) as MemoryRow | undefined)?.sourceHash === data.sourceHash) return [];
    }
  }
  const taken = new Set([...dirRow.entries.values()].map((entry) => entry.file.toLowerCase()));
  const created = data.created ?? event.ts;
  const row: MemoryRow = {
    id: data.memoryId,
    dir,
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
  const changes = withDir(dirRow, row, event.ts);
  const dirs = (state.get(DIRS) as readonly string[] | undefined) ?? [];
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

/** Applies `next` to a memory; its directory's row follows. Nothing when it is unknown or unchanged. */
export function update(state: RowReader<MemoriesRow>, event: DomainEvent, id: string, next: (row: MemoryRow) => MemoryRow): RowChange<MemoriesRow>[] {
  const row = state.get(memoryKey(id)) as MemoryRow | undefined;
  if (!row) return [];
  const changed = next(row);
  if (changed === row) return [];
  return withDir(state.get(dirKey(row.dir)) as DirRow, changed, event.ts);
}

function withDir(dir: DirRow, row: MemoryRow, at: string): RowChange<MemoriesRow>[] {
  const entries = new Map(dir.entries);
  entries.set(row.id, dirEntry(row));
  return [rowChange(memoryKey(row.id), row), rowChange(dirKey(dir.dir), { ...dir, asOf: at > dir.asOf ? at : dir.asOf, entries })];
}

