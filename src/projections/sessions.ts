import { defineProjector } from './projector.js';
import { fileChange, fileSafe, type FileChange } from './file-changes.js';
import { emptySession, nextSessionRecord, sessionEventTypes, type SessionRecord } from './session-record.js';

export interface SessionsState {
  sessions: Map<string, SessionRecord>;
}

/** views/sessions/<id>.json: one file per session with what it did. */
export const sessionsProjector = defineProjector<SessionsState, FileChange>({
  name: 'sessions',
  projectorVersion: 1,
  handles: sessionEventTypes,
  initialState: () => ({ sessions: new Map() }),
  evolve(state, event) {
    // Rejected stdin may carry no session id at all; there is no session to tell about.
    if (event.session === '') return { state, changes: [] };
    const before = state.sessions.get(event.session) ?? emptySession(event.session, event.project, event.ts);
    const record = nextSessionRecord(before, event);
    state.sessions.set(event.session, record);
    return {
      state,
      changes: [fileChange('views', `sessions/${fileSafe(event.session)}.json`, () => `${JSON.stringify(record, null, 2)}\n`)],
    };
  },
});

