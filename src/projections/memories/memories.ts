import type { DomainEvent, EventOf } from '../../events/catalog.js';
import type { MemoryProposed } from '../../events/memory-events.js';
import { detectCorrection } from '../../capture/correction-detector.js';
import { GLOBAL_MEMORY_DIR, projectMemoryDir } from '../../paths.js';
import { defineProjector, type RowReader } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { findSameMemory } from './match-memory.js';
import { dirEntry, fileNameFor, type DirRow, type HygieneRow, type MemoryRow } from './memory-row.js';

const MEM = 'mem:';
const DIR = 'dir:';
/** Every memory directory's key, so a maintenance tick can rescore them all. */
const DIRS = 'dirs';
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

/** DESIGN.md: a lesson the correction detector found starts active, at this confidence. */
const CORRECTION_CONFIDENCE = 0.6;
/** How much a memory's confidence rises each time it is said again. */
const REINFORCEMENT = 0.1;

/**
 * The memories: one row per memory (its file in Claude Code's memory directory, or in
 * `_archive/`), one per directory (its MEMORY.md). Pure: a new memory that says what an existing
 * one of its directory and type already says reinforces that one instead; archiving and
 * superseding move a memory, never delete it; a pinned memory is never archived or superseded
 * by the maintenance tick.
 */
export const memoriesProjector = defineProjector<MemoriesRow>({
  name: 'memories',
  projectorVersion: 1,
  handles: [
    'PromptSubmitted', 'MemoryProposed', 'MemoryReinforced', 'MemoryCorroborated', 'MemoryEdited', 'MemoryPinned', 'MemoryUnpinned',
    'MemorySuperseded', 'MemoryArchived', 'MemoryForgotten', 'MemoryRestored', 'MemoriesMaintained', 'MemoryVerified',
    'HygieneReported',
  ],
  evolve(state, event) {
    switch (event.type) {
      case 'PromptSubmitted': {
        // The detector is pure and runs on the prompt as stored, so a replay finds the same lessons.
        const correction = detectCorrection(event.data.prompt);
        if (!correction) return [];
        return propose(state, event, {
          memoryId: `correction:${event.id}`,
          origin: 'correction',
          scope: correction.scope,
          name: correction.name,
          description: correction.description,
          type: correction.type,
          body: `${correction.lesson}\n`,
          status: 'active',
          confidence: CORRECTION_CONFIDENCE,
        });
      }
      case 'MemoryProposed':
        return propose(state, event, event.data);
      case 'MemoryReinforced':
        return update(state, event, event.data.memoryId, (row) => reinforce(row, event.ts));
      case 'MemoryCorroborated':
        return update(state, event, event.data.memoryId, (row) => (row.status === 'provisional' ? { ...row, status: 'active', modified: event.ts } : row));
      case 'MemoryEdited': {
        const { data } = event;
        return update(state, event, data.memoryId, (row) => ({
          ...row,
          name: data.name,
          description: data.description,
          type: data.type,
          tier: data.tier,
          body: data.body,
          confidence: data.confidence ?? row.confidence,
          pinned: data.pinned ?? row.pinned,
          contradicts: data.contradicts ?? row.contradicts,
          extra: (data.extra as MemoryRow['extra'] | undefined) ?? row.extra,
          editedHash: data.contentHash ?? row.editedHash,
          modified: event.ts,
        }));
      }
      case 'MemoryPinned':
        return update(state, event, event.data.memoryId, (row) => (row.pinned ? row : { ...row, pinned: true, modified: event.ts }));
      case 'MemoryUnpinned':
        return update(state, event, event.data.memoryId, (row) => (row.pinned ? { ...row, pinned: false, modified: event.ts } : row));
      case 'MemorySuperseded': {
        const by = state.get(memoryKey(event.data.by)) as MemoryRow | undefined;
        return update(state, event, event.data.memoryId, (row) =>
          row.pinned || row.status === 'superseded'
            ? row
            : {
              ...row,
              status: 'superseded',
              supersededBy: by?.name ?? event.data.by,
              supersededAt: event.ts,
              archived: row.archived ?? { at: event.ts, reason: `superseded by ${by?.name ?? event.data.by}` },
              modified: event.ts,
            },
        );
      }
      case 'MemoryArchived':
        return update(state, event, event.data.memoryId, (row) =>
          row.pinned || row.archived ? row : { ...row, archived: { at: event.ts, reason: event.data.reason }, modified: event.ts },
        );
      case 'MemoryForgotten':
        // The user's word: even a pinned memory goes, to _archive/, never further.
        return update(state, event, event.data.memoryId, (row) =>
          row.archived ? row : { ...row, archived: { at: event.ts, reason: `forgotten: ${event.data.reason}` }, modified: event.ts },
        );
      case 'MemoryRestored':
        return update(state, event, event.data.memoryId, (row) =>
          row.archived || row.status === 'superseded'
            ? { ...row, archived: undefined, status: row.status === 'superseded' ? 'active' : row.status, supersededBy: undefined, supersededAt: undefined, modified: event.ts }
            : row,
        );
      case 'MemoriesMaintained': {
        const dirs = (state.get(DIRS) as readonly string[] | undefined) ?? [];
        const rescored = dirs.flatMap((key) => {
          const dir = state.get(key) as DirRow | undefined;
          return dir && event.data.at > dir.asOf ? [rowChange<MemoriesRow>(key, { ...dir, asOf: event.data.at })] : [];
        });
        return [...rescored, rowChange<MemoriesRow>(MAINTAINED, { at: event.data.at })];
      }
      case 'MemoryVerified': {
        const { data } = event;
        const missing = data.claims.filter((claim) => claim.status === 'missing').map((claim) => `${claim.kind} ${claim.value}`);
        // Not a change of the memory itself: `modified` stays, so its file says when a person or a lesson changed it.
        return update(state, event, data.memoryId, (row) =>
          row.verification?.penalty === data.penalty && sameList(row.verification.missing, missing)
            ? row
            : { ...row, verification: { at: event.ts, penalty: data.penalty, missing } },
        );
      }
      case 'HygieneReported':
        return [rowChange<MemoriesRow>(hygieneKey(event.data.dir), { ...event.data, at: event.ts })];
      default:
        return [];
    }
  },
});

type Proposal = EventOf<typeof MemoryProposed>['data'];

function propose(state: RowReader<MemoriesRow>, event: DomainEvent, data: Proposal): RowChange<MemoriesRow>[] {
  if (state.get(memoryKey(data.memoryId))) return [];
  const global = data.scope === 'global' || event.project === '';
  const dir = global ? GLOBAL_MEMORY_DIR : projectMemoryDir(event.project);
  const dirRow = (state.get(dirKey(dir)) as DirRow | undefined) ?? { dir, project: global ? '' : event.project, asOf: event.ts, entries: new Map() };
  // A lesson said again is the same memory, said once more: not a second file.
  if (data.origin !== 'import' && data.origin !== 'user') {
    const same = findSameMemory(dirRow.entries, data.type, data);
    if (same !== undefined) return update(state, event, same, (row) => reinforce(row, event.ts));
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
    status: data.status,
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
  };
  const changes = withDir(dirRow, row, event.ts);
  const dirs = (state.get(DIRS) as readonly string[] | undefined) ?? [];
  if (!dirs.includes(dirKey(dir))) changes.push(rowChange(DIRS, [...dirs, dirKey(dir)].sort()));
  return changes;
}

function reinforce(row: MemoryRow, at: string): MemoryRow {
  if (row.archived) return row;
  return {
    ...row,
    confidence: Math.round(Math.min(1, row.confidence + REINFORCEMENT) * 100) / 100,
    reinforced: row.reinforced + 1,
    lastReinforced: at > row.lastReinforced ? at : row.lastReinforced,
    status: row.status === 'provisional' ? 'active' : row.status,
    modified: at,
  };
}

/** Applies `next` to a memory; its directory's row follows. Nothing when it is unknown or unchanged. */
function update(state: RowReader<MemoriesRow>, event: DomainEvent, id: string, next: (row: MemoryRow) => MemoryRow): RowChange<MemoriesRow>[] {
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

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
