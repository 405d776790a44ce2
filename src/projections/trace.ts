import { defineProjector, type Projector } from './projector.js';
import type { FileOp } from './file-ops.js';
import { rowChange, type RowChange } from './row-change.js';
import { traceLine } from './trace-line.js';
import { traceViewPath } from './view-paths.js';
import { emptySession, nextSessionRecord, sessionEventTypes, type DistilledVia, type SessionRecord } from './session-record.js';
import { keyCache } from './key-cache.js';

/** How many of a project's latest sessions its trace view keeps. */
const RECENT = 3;
const SESSION = 'session:';
const PROJECT = 'project:';

/** A project's row: its latest sessions, most recently active first. */
export interface ProjectTrace {
  readonly project: string;
  readonly recent: readonly SessionRecord[];
}

type TraceRow = SessionRecord | ProjectTrace;

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
    /** How: `llm`, `trace` (the episode is the trace alone, no LLM) or `skipped` (too small). */
    distilledVia: DistilledVia | null;
  }>;
}

/**
 * views/trace/<project slug>.json: a project's latest sessions and the one-line trace the
 * SessionStart summary shows. Rows: each session's record, and each project's latest three.
 */
export function traceProjector(): Projector<TraceRow> {
  // This lane's own keys (key-cache.ts): made with the projection, gone with it.
  const sessionKeyOf = keyCache(SESSION);
  const projectKeyOf = keyCache(PROJECT);
  return defineProjector<TraceRow>({
    name: 'trace',
    projectorVersion: 3,
    handles: [...sessionEventTypes, 'DistillCompleted', 'DistillSkipped'],
    evolve(state, event) {
      if (event.session === '' || event.project === '') return [];
      const sessionKey = sessionKeyOf(event.session);
      const known = state.get(sessionKey) as SessionRecord | undefined;
      const distillation = event.type === 'DistillCompleted' || event.type === 'DistillSkipped';
      if (distillation && !known) return [];
      const before = known ?? emptySession(event.session, event.project, event.ts);
      // A distillation is not activity: it leaves the session's recency where it was. A skipped
      // session (too small to distill) has nothing left waiting either.
      const record = distillation
        ? {
          ...before,
          distilledThrough: Math.max(before.distilledThrough ?? 0, event.data.upToSeq),
          // A skip after an episode leaves that episode's word (the distiller skips to keep it).
          distilledVia: event.type === 'DistillCompleted' ? (event.data.via === 'llm' ? 'llm' as const : 'trace' as const) : (before.distilledVia ?? 'skipped'),
        }
        : nextSessionRecord(before, event);
      const projectKey = projectKeyOf(record.project);
      const trace = state.get(projectKey) as ProjectTrace | undefined;
      const earlier = trace?.recent ?? [];
      const recent = distillation ? earlier.map((other) => (other.session === record.session ? record : other)) : latest(record, earlier);
      const changes: RowChange<TraceRow>[] = [rowChange(sessionKey, record), rowChange(projectKey, { project: record.project, recent })];
      return changes;
    },
  });
}

/** The record first, then the others of `earlier` (most recent first), RECENT in all: one array, not three, at every event. */
function latest(record: SessionRecord, earlier: readonly SessionRecord[]): SessionRecord[] {
  const recent = [record];
  for (const other of earlier) {
    if (recent.length === RECENT) break;
    if (other.session !== record.session) recent.push(other);
  }
  return recent;
}

/** views/trace/<project slug>.json, for project rows; session rows have no file of their own. */
export function materializeTrace(key: string, row: TraceRow): FileOp[] {
  if (!key.startsWith(PROJECT)) return [];
  const { project, recent } = row as ProjectTrace;
  return [{ kind: 'write', path: traceViewPath(project), content: renderTrace(project, recent) }];
}

function renderTrace(project: string, records: readonly SessionRecord[]): string {
  const view: TraceView = {
    project,
    line: records[0] ? traceLine(records[0], isDistilled(records[0]), records[0].distilledVia) : '',
    sessions: records.map((record) => ({
      session: record.session,
      startedAt: record.startedAt,
      endedAt: record.endedAt,
      prompts: record.prompts,
      toolCalls: record.toolCalls,
      toolFailures: record.toolFailures,
      endedCleanly: record.endedCleanly,
      distilled: isDistilled(record),
      distilledVia: record.distilledVia ?? null,
    })),
  };
  return `${JSON.stringify(view, null, 2)}\n`;
}

/** Distilled as far as its latest activity: a session resumed since waits again. */
export function isDistilled(record: SessionRecord): boolean {
  return (record.distilledThrough ?? 0) >= record.lastSeq;
}
