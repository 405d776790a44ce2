import type { DomainEvent } from '../events/catalog.js';

/** What one session did, as far as the log knows. */
export interface SessionRecord {
  readonly session: string;
  readonly project: string;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly endReason: string | null;
  /** Each SessionStart source in order: startup, resume, clear, compact… */
  readonly starts: readonly string[];
  readonly prompts: number;
  readonly toolCalls: number;
  readonly toolFailures: number;
  /** Prompts that corrected the agent; counted once the correction detector records them. */
  readonly corrections: number;
  readonly compactions: number;
  readonly subagents: number;
  readonly turns: number;
  readonly rejectedInputs: number;
  /** A SessionEnd arrived; a session without one crashed, was killed, or is still open. */
  readonly endedCleanly: boolean;
  readonly lastEventAt: string;
  /** The seq of its latest event: orders sessions by recency without trusting clocks. */
  readonly lastSeq: number;
}

export const sessionEventTypes = [
  'SessionStarted', 'PromptSubmitted', 'ToolCalled', 'ToolFailed', 'CompactionStarted',
  'TurnStopped', 'SubagentStopped', 'SessionEnded', 'HookInputRejected',
] as const;

export function emptySession(session: string, project: string, at: string): SessionRecord {
  return {
    session, project, startedAt: null, endedAt: null, endReason: null, starts: [], prompts: 0,
    toolCalls: 0, toolFailures: 0, corrections: 0, compactions: 0, subagents: 0, turns: 0,
    rejectedInputs: 0, endedCleanly: false, lastEventAt: at, lastSeq: 0,
  };
}

/** The record after one more event of its session: a new object, the old one untouched. */
export function nextSessionRecord(record: SessionRecord, event: DomainEvent): SessionRecord {
  const base = { ...record, lastEventAt: event.ts, lastSeq: event.seq, project: record.project || event.project };
  switch (event.type) {
    case 'SessionStarted':
      return {
        ...base,
        startedAt: record.startedAt ?? event.ts,
        starts: [...record.starts, event.data.source],
        // A resumed session is open again until its next SessionEnd.
        endedAt: null,
        endReason: null,
        endedCleanly: false,
      };
    case 'PromptSubmitted':
      return { ...base, prompts: record.prompts + 1 };
    case 'ToolCalled':
      return {
        ...base,
        toolCalls: record.toolCalls + 1,
        toolFailures: record.toolFailures + (event.data.ok ? 0 : 1),
      };
    case 'ToolFailed':
      return { ...base, toolCalls: record.toolCalls + 1, toolFailures: record.toolFailures + 1 };
    case 'CompactionStarted':
      return { ...base, compactions: record.compactions + 1 };
    case 'TurnStopped':
      return { ...base, turns: record.turns + 1 };
    case 'SubagentStopped':
      return { ...base, subagents: record.subagents + 1 };
    case 'SessionEnded':
      return { ...base, endedAt: event.ts, endReason: event.data.reason, endedCleanly: true };
    case 'HookInputRejected':
      return { ...base, rejectedInputs: record.rejectedInputs + 1 };
    default:
      return base;
  }
}
