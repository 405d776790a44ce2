import type { DomainEvent } from '../../events/catalog.js';
import { defineProjector, type RowReader, type Projector } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { keyCache } from '../key-cache.js';

const SESSION = 's:';
/**
 * A session with activity not yet distilled, skipped or given up on has a row under this prefix:
 * one row each, so joining or leaving the list costs the same however many wait.
 */
export const PENDING = 'p:';
/** The latest sessions whose distillation failed for good, for `engram doctor`. */
export const FAILED = 'failed';
/** How many given-up sessions `engram doctor` lists. */
const FAILED_KEPT = 20;
/** How many distinct files, commands and failures a session's trace keeps for the prompt. */
const TRACE_ITEMS = 15;

/** A session's row (for a reader; the projector keeps its own keys, key-cache.ts). */
export const sessionKey = (session: string): string => SESSION + session;

/** The keys a distill lane makes, each once per session. */
interface QueueKeys {
  session(session: string): string;
  pending(session: string): string;
}

/** What the distiller needs of one session: how much it did since it was last distilled, and what. */
export interface DistillSession {
  readonly session: string;
  readonly project: string;
  readonly transcriptPath: string | undefined;
  /** Seq of its latest activity (any hook event of the session). */
  readonly lastSeq: number;
  readonly lastAt: string;
  /** A SessionEnd came after its latest activity. */
  readonly ended: boolean;
  /**
   * Activity since the last distillation, which decides whether it is trivial. A skip does not
   * reset it: a session split by an idle hour (2 prompts, a skip, 2 more) is then 4 prompts.
   */
  readonly prompts: number;
  readonly toolCalls: number;
  /** The seq its last distillation or skip covered; 0 before any. */
  readonly handledSeq: number;
  /** Failed tries at the activity up to `lastSeq`. */
  readonly failures: number;
  readonly lastFailure: { readonly at: string; readonly reason: string; readonly detail: string; readonly final: boolean } | undefined;
  /** Distilled at least once: a later distillation updates the same episode. */
  readonly distilled: boolean;
  /** What the session worked on, newest last, distinct, bounded. */
  readonly files: readonly string[];
  readonly commands: readonly string[];
  readonly errors: readonly string[];
  /** Seq of the latest TranscriptCaptured of the session (0: none): the distiller quotes that excerpt. */
  readonly capturedSeq?: number;
  /**
   * All the session's prompts and tool calls, never reset by a distillation: an episode written
   * from the trace counts the whole session, whenever it is (re)written.
   */
  readonly totalPrompts?: number;
  readonly totalToolCalls?: number;
  /** How its latest episode was written: by the LLM, or from the trace alone. */
  readonly via?: 'llm' | 'trace';
}

export interface FailedSessions {
  readonly latest: ReadonlyArray<{ session: string; project: string; at: string; reason: string }>;
}

type Row = DistillSession | true | FailedSessions;

const activity = new Set([
  'SessionStarted', 'PromptSubmitted', 'ToolCalled', 'ToolFailed', 'CompactionStarted', 'TurnStopped', 'SubagentStopped',
]);

const FILE_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/**
 * The distiller's to-do list: per session, what it did since it was last distilled, and which
 * sessions wait. The distiller reactor reads it (committed rows only) to decide what to distill;
 * its own events move a session out of the list. Rows only, no files.
 */
export function distillQueueProjector(): Projector<Row> {
  // This lane's own keys (key-cache.ts): made with the projection, gone with it.
  const keys: QueueKeys = { session: keyCache(SESSION), pending: keyCache(PENDING) };
  return defineProjector<Row>({
    name: 'distill',
    // 2: a skip no longer resets the counts. 3: a row remembers whether its episode came from an LLM.
    projectorVersion: 3,
    handles: [...activity, 'SessionEnded', 'TranscriptCaptured', 'DistillSkipped', 'DistillCompleted', 'DistillFailed'] as DomainEvent['type'][],
    evolve(state, event) {
      if (event.session === '') return [];
      const key = keys.session(event.session);
      const before = state.get(key) as DistillSession | undefined;
      switch (event.type) {
        case 'SessionEnded': {
          if (!before) return [];
          // The end is part of what a distillation covers; ended after one already ran, it is a trivial rest.
          return withPending(state, { ...before, ended: true, lastSeq: event.seq, lastAt: event.ts, transcriptPath: event.data.transcriptPath ?? before.transcriptPath }, keys);
        }
        case 'TranscriptCaptured':
          return before ? [rowChange<Row>(key, { ...before, capturedSeq: event.seq })] : [];
        case 'DistillSkipped':
        case 'DistillCompleted': {
          if (!before) return [];
          const handledSeq = Math.max(before.handledSeq, event.data.upToSeq);
          const caughtUp = handledSeq >= before.lastSeq;
          // Only a distillation starts the count again: what a skip judged too little adds up
          // with what comes after it.
          const recount = caughtUp && event.type === 'DistillCompleted';
          return withPending(state, {
            ...before,
            handledSeq,
            distilled: before.distilled || event.type === 'DistillCompleted',
            ...(event.type === 'DistillCompleted' ? { via: event.data.via === 'llm' ? 'llm' as const : 'trace' as const } : {}),
            // Activity after what this covered still counts toward the next distillation.
            prompts: recount ? 0 : before.prompts,
            toolCalls: recount ? 0 : before.toolCalls,
            failures: caughtUp ? 0 : before.failures,
            lastFailure: caughtUp ? undefined : before.lastFailure,
          }, keys);
        }
        case 'DistillFailed': {
          if (!before || event.data.upToSeq < before.handledSeq) return [];
          const failure = { at: event.ts, reason: event.data.reason, detail: event.data.detail, final: event.data.final };
          const next: DistillSession = {
            ...before,
            failures: before.failures + 1,
            lastFailure: failure,
            handledSeq: event.data.final ? Math.max(before.handledSeq, event.data.upToSeq) : before.handledSeq,
          };
          const changes = withPending(state, next, keys);
          if (event.data.final) {
            const failed = (state.get(FAILED) as FailedSessions | undefined)?.latest ?? [];
            const entry = { session: next.session, project: next.project, at: event.ts, reason: event.data.reason };
            changes.push(rowChange<Row>(FAILED, { latest: [...failed.filter((f) => f.session !== next.session), entry].slice(-FAILED_KEPT) }));
          }
          return changes;
        }
        default: {
          if (!activity.has(event.type) || event.project === '') return [];
          const session = before ?? emptySession(event.session, event.project);
          return withPending(state, noteActivity(session, event), keys);
        }
      }
    },
  });
}

function emptySession(session: string, project: string): DistillSession {
  return {
    session, project, transcriptPath: undefined, lastSeq: 0, lastAt: '', ended: false, prompts: 0, toolCalls: 0,
    handledSeq: 0, failures: 0, lastFailure: undefined, distilled: false, files: [], commands: [], errors: [],
  };
}

function noteActivity(before: DistillSession, event: DomainEvent): DistillSession {
  let { prompts, toolCalls, files, commands, errors, transcriptPath } = before;
  switch (event.type) {
    case 'SessionStarted':
      transcriptPath = event.data.transcriptPath ?? transcriptPath;
      break;
    case 'PromptSubmitted':
      prompts++;
      break;
    case 'ToolCalled':
      toolCalls++;
      if (FILE_TOOLS.has(event.data.tool) && event.data.input !== '') files = remember(files, event.data.input);
      else if (event.data.tool === 'Bash' && event.data.input !== '') commands = remember(commands, event.data.input);
      break;
    case 'ToolFailed':
      toolCalls++;
      errors = remember(errors, `${event.data.tool}: ${event.data.error.split('\n')[0]!.slice(0, 200)}`);
      break;
  }
  // One literal with every field in one order, not a spread: this runs for most events of a
  // rebuild, and a spread over rows of varying shapes was a tenth of it.
  return {
    session: before.session,
    project: before.project,
    transcriptPath,
    lastSeq: event.seq,
    lastAt: event.ts,
    // A new prompt after a SessionEnd is a resumed session: open again.
    ended: false,
    prompts,
    toolCalls,
    handledSeq: before.handledSeq,
    failures: before.failures,
    lastFailure: before.lastFailure,
    distilled: before.distilled,
    files,
    commands,
    errors,
    capturedSeq: before.capturedSeq,
    totalPrompts: (before.totalPrompts ?? 0) + (prompts - before.prompts),
    totalToolCalls: (before.totalToolCalls ?? 0) + (toolCalls - before.toolCalls),
    via: before.via,
  };
}

function remember(list: readonly string[], item: string): readonly string[] {
  // The same file or command again: the list is as it was (a row is never changed, so it is shared).
  if (list[list.length - 1] === item) return list;
  return [...list.filter((other) => other !== item), item].slice(-TRACE_ITEMS);
}

/** The session's row, and its pending row when it joins or leaves the waiting ones. */
function withPending(state: RowReader<Row>, session: DistillSession, keys: QueueKeys): RowChange<Row>[] {
  const key = keys.session(session.session);
  const changes: RowChange<Row>[] = [rowChange<Row>(key, session)];
  const before = state.get(key) as DistillSession | undefined;
  const waited = before !== undefined && before.lastSeq > before.handledSeq;
  const waits = session.lastSeq > session.handledSeq;
  if (waits !== waited) changes.push(rowChange<Row>(keys.pending(session.session), waits ? true : null));
  return changes;
}
