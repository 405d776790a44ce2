import { projectSlug } from '../paths.js';
import { defineProjector } from './projector.js';
import type { FileOp } from './file-ops.js';
import { rowChange, type RowChange } from './row-change.js';
import { emptySession, nextSessionRecord, sessionEventTypes, type SessionRecord } from './session-record.js';

/** How many of a project's latest sessions its trace view keeps. */
const RECENT = 3;

export interface TraceState {
  sessions: Map<string, SessionRecord>;
  /** Per project, its sessions' ids, most recently active first. */
  recent: Map<string, readonly string[]>;
}

export interface TraceView {
  project: string;
  /** The line the SessionStart summary prints for the latest session. */
  line: string;
  sessions: Array<{
    session: string;
    startedAt: string | null;
    endedAt: string | null;
    prompts: number;
    toolCalls: number;
    toolFailures: number;
    endedCleanly: boolean;
    distilled: boolean;
  }>;
}

/**
 * views/trace/<project slug>.json: a project's latest sessions and the one-line trace the
 * SessionStart summary shows. The hook picks the latest session that is not its own.
 */
export const traceProjector = defineProjector<TraceState, RowChange<readonly SessionRecord[]>>({
  name: 'trace',
  projectorVersion: 1,
  handles: sessionEventTypes,
  initialState: () => ({ sessions: new Map(), recent: new Map() }),
  evolve(state, event) {
    if (event.session === '' || event.project === '') return { state, changes: [] };
    const before = state.sessions.get(event.session) ?? emptySession(event.session, event.project, event.ts);
    const record = nextSessionRecord(before, event);
    state.sessions.set(event.session, record);
    const project = record.project;
    const ids = state.recent.get(project) ?? [];
    const recent = [event.session, ...ids.filter((id) => id !== event.session)].slice(0, RECENT);
    state.recent.set(project, recent);
    return { state, changes: [rowChange(project, recent.map((id) => state.sessions.get(id)!))] };
  },
});

export function traceLine(record: Pick<SessionRecord, 'toolCalls'>, distilled: boolean): string {
  return `last session: ${record.toolCalls} tool call${record.toolCalls === 1 ? '' : 's'} · distilled ${distilled ? '✓' : 'pending'}`;
}

/** views/trace/<project slug>.json */
export function materializeTrace(project: string, records: readonly SessionRecord[]): FileOp[] {
  return [{ kind: 'write', path: `trace/${projectSlug(project)}.json`, content: renderTrace(project, records) }];
}

function renderTrace(project: string, records: readonly SessionRecord[]): string {
  const view: TraceView = {
    project,
    line: records[0] ? traceLine(records[0], false) : '',
    sessions: records.map((record) => ({
      session: record.session,
      startedAt: record.startedAt,
      endedAt: record.endedAt,
      prompts: record.prompts,
      toolCalls: record.toolCalls,
      toolFailures: record.toolFailures,
      endedCleanly: record.endedCleanly,
      // The distiller (a later reactor) records SessionDistilled; until then every session waits.
      distilled: false,
    })),
  };
  return `${JSON.stringify(view, null, 2)}\n`;
}
