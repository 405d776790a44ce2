import { projectSlug } from '../paths.js';
import { defineProjector } from './projector.js';
import type { FileOp } from './file-ops.js';
import { rowChange, type RowChange } from './row-change.js';
import { emptySession, nextSessionRecord, sessionEventTypes, type SessionRecord } from './session-record.js';

/** A project's sessions that began in one month, in the order the log first saw them. */
export type SessionMonth = ReadonlyMap<string, SessionRecord>;

export interface SessionsState {
  /** Each session's partition key: its project and the month it began. */
  partitionOf: Map<string, string>;
  partitions: Map<string, Map<string, SessionRecord>>;
}

/**
 * What each session did, one row per project and month: views/sessions/<project>/<YYYY-MM>.jsonl,
 * a line a session. Monthly files, not one per session: a rebuild writes dozens of files, not
 * thousands, and keeping up rewrites only the current month.
 *
 * The row is the partition's own Map, updated in place: safe because every event that updates
 * it also emits the change for its key, so at a flush the row is what the last change saw.
 */
export const sessionsProjector = defineProjector<SessionsState, RowChange<SessionMonth>>({
  name: 'sessions',
  projectorVersion: 1,
  handles: sessionEventTypes,
  initialState: () => ({ partitionOf: new Map(), partitions: new Map() }),
  evolve(state, event) {
    // Rejected stdin may carry no session id at all; there is no session to tell about.
    if (event.session === '') return { state, changes: [] };
    let key = state.partitionOf.get(event.session);
    if (key === undefined) {
      key = `${event.project}\n${event.ts.slice(0, 7)}`;
      state.partitionOf.set(event.session, key);
    }
    let partition = state.partitions.get(key);
    if (!partition) state.partitions.set(key, (partition = new Map()));
    const before = partition.get(event.session) ?? emptySession(event.session, event.project, event.ts);
    partition.set(event.session, nextSessionRecord(before, event));
    return { state, changes: [rowChange(key, partition)] };
  },
});

export function materializeSessions(key: string, month: SessionMonth): FileOp[] {
  const [project = '', yearMonth = ''] = key.split('\n');
  let content = '';
  for (const record of month.values()) content += `${JSON.stringify(record)}\n`;
  return [{ kind: 'write', path: `sessions/${projectSlug(project)}/${yearMonth}.jsonl`, content }];
}
