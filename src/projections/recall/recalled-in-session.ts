import type { FileOp } from '../file-ops.js';
import { defineProjector } from '../projector.js';
import { rowChange } from '../row-change.js';
import { recalledViewPath } from '../view-paths.js';

const SESSION = 'session:';

/**
 * Most memory ids a session keeps as already recalled, the latest kept: a row (and the file the
 * hook reads) stays small in a session of thousands of prompts. A memory recalled more than this
 * many recalls ago may come back once more, which is harmless.
 */
export const MAX_RECALLED_PER_SESSION = 500;

/** The memories recall put in one session's context, oldest first. */
export interface RecalledRow {
  readonly session: string;
  readonly memoryIds: readonly string[];
}

/**
 * Which memories each session has already been given (MemoriesRecalled), one row per session,
 * written to `views/recalled/<session>.json` as a JSON array of ids: what makes recall put a
 * memory in a session's context at most once, whether the worker or the hook's fallback answers.
 */
export const recalledInSessionProjector = defineProjector<RecalledRow>({
  name: 'recalled-in-session',
  projectorVersion: 1,
  handles: ['MemoriesRecalled'],
  evolve(state, event) {
    if (event.type !== 'MemoriesRecalled' || event.session === '') return [];
    const key = SESSION + event.session;
    const before = state.get(key)?.memoryIds ?? [];
    const fresh = event.data.memoryIds.filter((id, i, all) => !before.includes(id) && all.indexOf(id) === i);
    if (fresh.length === 0) return [];
    return [rowChange(key, { session: event.session, memoryIds: [...before, ...fresh].slice(-MAX_RECALLED_PER_SESSION) })];
  },
});

export function materializeRecalledInSession(key: string, row: RecalledRow): FileOp[] {
  if (!key.startsWith(SESSION)) return [];
  return [{ kind: 'write', path: recalledViewPath(row.session), content: `${JSON.stringify(row.memoryIds)}\n` }];
}
