import { projectSlug } from '../paths.js';
import { defineProjector } from './projector.js';
import type { FileOp } from './file-ops.js';
import { rowChange } from './row-change.js';
import { emptySession, nextSessionRecord, sessionEventTypes, type SessionRecord } from './session-record.js';

const SESSION = 'session:';

/**
 * What each session did: one row per session, shown as views/sessions/<project>/<first day>-
 * <session>.json. One small file per session, not a file per project and month: a live event
 * rewrites one session's few hundred bytes, however long the project's history.
 */
export const sessionsProjector = defineProjector<SessionRecord>({
  name: 'sessions',
  projectorVersion: 2,
  handles: sessionEventTypes,
  evolve(state, event) {
    // Rejected stdin may carry no session id at all; there is no session to tell about.
    if (event.session === '') return [];
    const key = SESSION + event.session;
    const before = state.get(key) ?? emptySession(event.session, event.project, event.ts);
    return [rowChange(key, nextSessionRecord(before, event))];
  },
});

export function materializeSessions(_key: string, record: SessionRecord): FileOp[] {
  const day = record.firstEventAt.slice(0, 10);
  return [{ kind: 'write', path: `sessions/${projectSlug(record.project)}/${day}-${fileSafe(record.session)}.json`, content: `${JSON.stringify(record, null, 2)}\n` }];
}

/**
 * A session id as part of a file name. Claude Code's ids are UUIDs, but the id arrives on a
 * hook's stdin: anything else is made safe (no `/`, no `..`) and told apart by a hash.
 */
export function fileSafe(id: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(id)) return id;
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return `${id.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 80)}-${hash.toString(16).padStart(8, '0')}`;
}
