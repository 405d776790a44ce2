import { projectSlug } from '../paths.js';
import { defineProjector, type Projector } from './projector.js';
import type { FileOp } from './file-ops.js';
import { rowChange, type RowChange } from './row-change.js';
import { emptySession, nextSessionRecord, sessionEventTypes, type SessionRecord } from './session-record.js';
import { keyCache } from './key-cache.js';

const SESSION = 'session:';
const DAY = 'day:';

/**
 * The sessions of one project that began on one day, in the order the log first saw them. A
 * list, not a map by id: an event copies its day's list of a few dozen pointers, where copying
 * a map rehashed every session of the day at every event of a rebuild.
 */
export interface SessionDay {
  readonly project: string;
  readonly day: string;
  readonly sessions: readonly SessionRecord[];
}

/** Where a session's record lives: fixed by the first event the log holds of it. */
interface SessionPlace {
  readonly day: string;
  /** Its place in the day's list. */
  readonly index: number;
}

type SessionsRow = SessionDay | SessionPlace;

/**
 * What each session did, one line per session in views/sessions/<project>/<YYYY-MM-DD>.jsonl,
 * by the day the session began. A day, not a file per session (a rebuild of a million events
 * would write ten thousand files) and not a month (a live event would rewrite a month of
 * sessions): a live event rewrites the few sessions of its day, however long the history.
 */
export function sessionsProjector(): Projector<SessionsRow> {
  // This lane's own keys (key-cache.ts): made with the projection, gone with it.
  const placeKeyOf = keyCache(SESSION);
  return defineProjector<SessionsRow>({
    name: 'sessions',
    // 3: a day's sessions are a list, each session's place in it kept with its day.
    projectorVersion: 3,
    handles: sessionEventTypes,
    evolve(state, event) {
      // Rejected stdin may carry no session id at all; there is no session to tell about.
      if (event.session === '') return [];
      const placeKey = placeKeyOf(event.session);
      const place = state.get(placeKey) as SessionPlace | undefined;
      const changes: RowChange<SessionsRow>[] = [];
      const dayKey = place ? place.day : `${DAY}${event.project}\n${event.ts.slice(0, 10)}`;
      const day = state.get(dayKey) as SessionDay | undefined;
      const sessions = day ? day.sessions.slice() : [];
      const index = place ? place.index : sessions.length;
      if (!place) changes.push(rowChange(placeKey, { day: dayKey, index }));
      sessions[index] = nextSessionRecord(sessions[index] ?? emptySession(event.session, event.project, event.ts), event);
      changes.push(rowChange(dayKey, { project: day?.project ?? event.project, day: day?.day ?? event.ts.slice(0, 10), sessions }));
      return changes;
    },
  });
}

export function materializeSessions(key: string, row: SessionsRow): FileOp[] {
  if (!key.startsWith(DAY)) return [];
  const { project, day, sessions } = row as SessionDay;
  let content = '';
  for (const record of sessions) content += `${JSON.stringify(record)}\n`;
  return [{ kind: 'write', path: `sessions/${projectSlug(project)}/${day}.jsonl`, content }];
}
