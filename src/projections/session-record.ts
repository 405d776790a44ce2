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
  /** When the log first heard of it (its first event, SessionStart or not). */
  readonly firstEventAt: string;
  readonly lastEventAt: string;
  /** The seq of its latest event: orders sessions by recency without trusting clocks. */
  readonly lastSeq: number;
  /** The seq the distiller's latest recorded distillation of it covered (the trace keeps it). */
  readonly distilledThrough?: number;
  /** How that distillation went: the LLM wrote the episode, the trace alone did (no LLM), or the session was too small. */
  readonly distilledVia?: DistilledVia;
}

export type DistilledVia = 'llm' | 'trace' | 'skipped';

export const sessionEventTypes = [
  'SessionStarted', 'PromptSubmitted', 'ToolCalled', 'ToolFailed', 'CompactionStarted',
  'TurnStopped', 'SubagentStopped', 'SessionEnded', 'HookInputRejected',
] as const;

export function emptySession(session: string, project: string, at: string): SessionRecord {
  return {
    session, project, startedAt: null, endedAt: null, endReason: null, starts: [], prompts: 0,
    toolCalls: 0, toolFailures: 0, corrections: 0, compactions: 0, subagents: 0, turns: 0,
    rejectedInputs: 0, endedCleanly: false, firstEventAt: at, lastEventAt: at, lastSeq: 0,
  };
}

/**
 * The record after one more event of its session: a new object, the old one untouched. Built as
 * one literal rather than spreads: it runs for every event of a rebuild, twice.
 */
export function nextSessionRecord(r: SessionRecord, event: DomainEvent): SessionRecord {
  let { startedAt, endedAt, endReason, starts, prompts, toolCalls, toolFailures, compactions, subagents, turns, rejectedInputs, endedCleanly } = r;
  switch (event.type) {
    case 'SessionStarted':
      startedAt ??= event.ts;
      starts = [...starts, event.data.source];
      // A resumed session is open again until its next SessionEnd.
      endedAt = null;
      endReason = null;
      endedCleanly = false;
      break;
    case 'PromptSubmitted':
      prompts++;
      break;
    case 'ToolCalled':
      toolCalls++;
      if (!event.data.ok) toolFailures++;
      break;
    case 'ToolFailed':
      toolCalls++;
      toolFailures++;
      break;
    case 'CompactionStarted':
      compactions++;
      break;
    case 'TurnStopped':
      turns++;
      break;
    case 'SubagentStopped':
      subagents++;
      break;
    case 'SessionEnded':
      endedAt = event.ts;
      endReason = event.data.reason;
      endedCleanly = true;
      break;
    case 'HookInputRejected':
      rejectedInputs++;
      break;
    default:
      break;
  }
  return {
    session: r.session,
    project: r.project || event.project,
    startedAt,
    endedAt,
    endReason,
    starts,
    prompts,
    toolCalls,
    toolFailures,
    corrections: r.corrections,
    compactions,
    subagents,
    turns,
    rejectedInputs,
    endedCleanly,
    firstEventAt: r.firstEventAt,
    lastEventAt: event.ts,
    lastSeq: event.seq,
    distilledThrough: r.distilledThrough,
    distilledVia: r.distilledVia,
  };
}
