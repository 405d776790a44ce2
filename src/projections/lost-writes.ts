import { defineProjector } from './projector.js';
import { rowChange } from './row-change.js';
import type { FileOp } from './file-ops.js';
import { lostWritesViewPath } from './view-paths.js';

/** One HookWritesFailed event as the view keeps it. */
export interface LostWrites {
  readonly count: number;
  readonly firstAt: string;
  readonly lastAt: string;
  readonly reason: string;
  readonly hooks: readonly string[];
}

/** Every hook event known lost, and the latest losses: what doctor and SessionStart say. */
export interface LostWritesRow {
  readonly count: number;
  readonly firstAt: string;
  readonly lastAt: string;
  readonly latest: readonly LostWrites[];
}

const TOTAL = 'total';
/** How many losses the row keeps one by one; older ones stay in the total only. */
const LATEST = 5;

/**
 * Hook events that never reached the log (HookWritesFailed: a full disk, an I/O error), summed
 * into one row whose sink writes `views/lost/hook-writes.json` for the SessionStart hook, and
 * which `engram doctor` reads.
 */
export const lostWritesProjector = defineProjector<LostWritesRow>({
  name: 'lost-writes',
  projectorVersion: 1,
  handles: ['HookWritesFailed'],
  evolve(state, event) {
    if (event.type !== 'HookWritesFailed') return [];
    const { count, firstAt, lastAt, reason, hooks } = event.data;
    const before = state.get(TOTAL);
    const row: LostWritesRow = {
      count: (before?.count ?? 0) + count,
      firstAt: before && before.firstAt < firstAt ? before.firstAt : firstAt,
      lastAt: before && before.lastAt > lastAt ? before.lastAt : lastAt,
      latest: [...(before?.latest ?? []), { count, firstAt, lastAt, reason, hooks: [...hooks] }].slice(-LATEST),
    };
    return [rowChange(TOTAL, row)];
  },
});

export function materializeLostWrites(key: string, row: LostWritesRow): FileOp[] {
  if (key !== TOTAL) return [];
  return [{ kind: 'write', path: lostWritesViewPath(), content: `${JSON.stringify(row, null, 2)}\n` }];
}

export const lostWritesKey = TOTAL;
