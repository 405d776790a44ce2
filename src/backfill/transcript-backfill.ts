import { messageText, transcriptLine, transcriptMessage, type TranscriptLine } from '../capture/transcript-line.js';
import { parseJsonlLine } from '../capture/parse-jsonl-line.js';
import { readJsonlLines } from '../capture/read-jsonl-lines.js';
import type { EventDefinition } from '../events/define-event.js';
import type { Envelope } from '../events/envelope.js';
import {
  ANSWER_CAP, CompactionStarted, ERROR_CAP, PROMPT_CAP, PromptSubmitted, SessionEnded, SessionStarted, SubagentStopped,
  ToolCalled, ToolFailed, TurnStopped,
} from '../events/hook-events.js';
import { toolInputPointer } from '../capture/tool-input-pointer.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { backfillEvent } from './backfill-event.js';
import { backfillId } from './backfill-id.js';
import { bump, type Counts } from './backfill-tally.js';
import type { BackfillScope } from './backfill-scope.js';

/** One of Claude Code's transcript files, and what is known of it before it is read. */
export interface TranscriptFile {
  /** Absolute path. */
  path: string;
  /** Relative to CLAUDE_CONFIG_DIR: what ids and the report name it by. */
  rel: string;
  source: 'transcript' | 'subagent';
  /** The session it belongs to: its file name, or its parent directory's for a subagent's. */
  session: string;
  /** The project when no line names its cwd (a subagent's parent's, history.jsonl's, a decoded slug). */
  project: string | undefined;
  bytes: number;
}

export interface TranscriptOutcome {
  lines: number;
  events: number;
  skipped: Counts;
  redacted: Counts;
  /** The project its lines named (or the one it was given); undefined when none is known. */
  project: string | undefined;
  /** Not in `--project`: read no further than the line that said so. */
  outOfScope: boolean;
  /** Bytes of the file read (all of it, unless out of scope). */
  bytes: number;
  prompts: number;
  toolCalls: number;
  toolFailures: number;
  compactions: number;
  subagents: number;
  /** The sessions it added events to. */
  sessions: Set<string>;
  /** Sessions it read only up to where the hooks' live capture began. */
  liveSessions: Set<string>;
}

/**
 * Tool calls waiting for their result are kept by id; a transcript that never answers them (a
 * killed session) cannot grow this past a bound, so memory stays flat on any file.
 */
const PENDING_TOOLS = 10_000;
/** Longest answer text held while a turn is open: what TurnStopped keeps, plus redaction's window. */
const ANSWER_WINDOW = ANSWER_CAP + 4096;
/** A session whose transcript is quiet this long has ended (the distiller's own idle rule). */
const ENDED_AFTER_MS = 3600_000;

const PASSED_OVER = new Set(['summary', 'file-history-snapshot', 'progress', 'queue-operation', 'attachment', 'custom-title', 'tag']);

/**
 * Reads one transcript, streaming, and hands `emit` the events Claude Code's hooks would have
 * written for it: SessionStarted, PromptSubmitted, ToolCalled / ToolFailed (input pointers
 * only), CompactionStarted, TurnStopped, SubagentStopped, SessionEnded, each redacted as the
 * hooks redact, at the line's own time, with an id derived from the line. Every line type is
 * read or passed over knowingly and counted; a corrupt, cut-short or non-UTF-8 line never stops
 * it. Only a failure to open or read the file, or an abort, rejects.
 */
export async function backfillTranscript(file: TranscriptFile, scope: BackfillScope, emit: (event: Envelope) => Promise<void>): Promise<TranscriptOutcome> {
  const out: TranscriptOutcome = {
    lines: 0, events: 0, skipped: {}, redacted: {}, project: file.project, outOfScope: false, bytes: 0,
    prompts: 0, toolCalls: 0, toolFailures: 0, compactions: 0, subagents: 0, sessions: new Set(), liveSessions: new Set(),
  };
  const skip = (reason: string) => bump(out.skipped, reason);
  const pendingTools = new Map<string, { tool: string; input: string }>();
  let turn: { key: string; at: number; session: string; text: string; chars: number } | undefined;
  let started = false;
  let lastAt: number | undefined;
  let lineNo = 0;
  let afterBoundary = false;
  // A session's live capture, looked up once per session a line names.
  const liveFrom = new Map<string, number | undefined>();

  const lineKey = (line: TranscriptLine) => line.uuid ?? `${file.rel}#${lineNo}`;
  /** Whether an event at `at` of `session` is to be recorded; counts why not. */
  const inScope = async (session: string, at: number): Promise<boolean> => {
    if (scope.since !== undefined && at < scope.since) return (skip('before --since'), false);
    if (!liveFrom.has(session)) liveFrom.set(session, await scope.liveFrom(session));
    const live = liveFrom.get(session);
    if (live !== undefined) {
      out.liveSessions.add(session);
      if (at >= live) return (skip('captured live'), false);
    }
    return true;
  };
  const record = async (definition: EventDefinition, data: unknown, id: string, session: string, at: number): Promise<boolean> => {
    if (out.project === undefined) return (skip('no project known'), false);
    const event = backfillEvent(definition, data, { id, at, session, project: out.project }, out.redacted);
    if (!event) return (skip('could not be made a valid event'), false);
    out.events++;
    out.sessions.add(session);
    await emit(event);
    return true;
  };
  const closeTurn = async () => {
    if (!turn) return;
    const { key, at, session, text, chars } = turn;
    turn = undefined;
    if (!(await inScope(session, at))) return;
    await record(TurnStopped, { stopHookActive: false, answerChars: chars, answer: redactCapped(text, ANSWER_CAP) }, backfillId('stop', session, key), session, at);
  };

  const end = file.bytes > 0 ? file.bytes - 1 : 0;
  const lines = file.bytes > 0 ? readJsonlLines(file.path, { end, signal: scope.signal }) : emptyLines();
  for await (const raw of lines) {
    lineNo++;
    out.bytes += raw.bytes;
    scope.progress(raw.bytes);
    const parsed = parseJsonlLine(raw, transcriptLine);
    if (parsed.kind === 'empty') continue;
    out.lines++;
    if (parsed.kind === 'skip') {
      skip(parsed.reason === 'invalid' ? 'not a transcript line' : parsed.reason);
      continue;
    }
    const json = parsed.json;
    const line = parsed.data;
    const cwd = (json as { cwd?: unknown }).cwd;
    if (out.project === undefined && typeof cwd === 'string' && cwd.length > 0 && cwd.length <= 4096) out.project = cwd;
    if (scope.project !== undefined && out.project !== undefined && !scope.project(out.project)) {
      out.outOfScope = true;
      break;
    }
    if (PASSED_OVER.has(line.type)) {
      skip(line.type);
      continue;
    }
    const at = line.timestamp === undefined ? Number.NaN : Date.parse(line.timestamp);
    if (Number.isNaN(at)) {
      skip(line.type === 'user' || line.type === 'assistant' || line.type === 'system' ? 'no timestamp' : `${line.type.slice(0, 40)} line`);
      continue;
    }
    lastAt = at;
    const session = line.sessionId && line.sessionId.length <= 200 ? line.sessionId : file.session;
    if (!started && file.source === 'transcript') {
      started = true;
      if (await inScope(file.session, at)) {
        await record(SessionStarted, { source: 'startup', transcriptPath: file.path }, backfillId('start', file.session, file.rel), file.session, at);
      }
    }
    const sidechain = file.source === 'subagent' || line.isSidechain === true;
    switch (line.type) {
      case 'system': {
        if (line.subtype !== 'compact_boundary') {
          skip(`system ${(line.subtype ?? 'line').slice(0, 40)}`);
          break;
        }
        await closeTurn();
        afterBoundary = true;
        if (!(await inScope(session, at))) break;
        const trigger = (json as { compactMetadata?: { trigger?: unknown } }).compactMetadata?.trigger;
        const key = lineKey(line);
        if (await record(CompactionStarted, { trigger: typeof trigger === 'string' ? trigger.slice(0, 40) : 'auto' }, backfillId('compact', session, key), session, at)) out.compactions++;
        // SessionStart fires again with source `compact` once the summary is in.
        await record(SessionStarted, { source: 'compact', transcriptPath: file.path }, backfillId('start-compact', session, key), session, at);
        break;
      }
      case 'user': {
        const message = transcriptMessage.safeParse(line.message);
        if (!message.success) {
          skip('unreadable message');
          break;
        }
        const content = message.data.content;
        const results = Array.isArray(content) ? content.filter((block) => block.type === 'tool_result') : [];
        if (results.length > 0) {
          for (const block of results) {
            const result = block as { tool_use_id?: unknown; is_error?: unknown; content?: unknown };
            const id = typeof result.tool_use_id === 'string' ? result.tool_use_id.slice(0, 200) : '';
            const call = pendingTools.get(id);
            if (!call) {
              skip('tool result without its call');
              continue;
            }
            pendingTools.delete(id);
            if (!(await inScope(session, at))) continue;
            const eventId = backfillId('tool', session, id);
            if (result.is_error === true) {
              const error = resultText(result.content);
              const data = { tool: call.tool, input: call.input, error: redactCapped(error, ERROR_CAP), interrupted: /interrupted by user/i.test(error.slice(0, 200)) || undefined, toolUseId: id };
              if (await record(ToolFailed, data, eventId, session, at)) (out.toolCalls++, out.toolFailures++);
            } else if (await record(ToolCalled, { tool: call.tool, input: call.input, ok: true, toolUseId: id }, eventId, session, at)) out.toolCalls++;
          }
          break;
        }
        if (sidechain) {
          skip('subagent text');
          break;
        }
        const text = messageText(message.data);
        if (line.isMeta === true) skip('meta');
        else if (line.isCompactSummary === true || afterBoundary) skip('compaction summary');
        else if (text.trim().length === 0) skip('no text');
        else if (text.startsWith('<local-command-') || text.startsWith('[Request interrupted')) skip('not typed by the user');
        else {
          await closeTurn();
          if (await inScope(session, at)) {
            const data = { prompt: redactCapped(text, PROMPT_CAP), chars: text.length, truncated: text.length > PROMPT_CAP };
            if (await record(PromptSubmitted, data, backfillId('prompt', session, lineKey(line)), session, at)) out.prompts++;
          }
        }
        afterBoundary = false;
        break;
      }
      case 'assistant': {
        const message = transcriptMessage.safeParse(line.message);
        if (!message.success) {
          skip('unreadable message');
          break;
        }
        if (line.isApiErrorMessage === true || message.data.model === '<synthetic>') {
          skip('synthetic answer');
          break;
        }
        const content = message.data.content;
        for (const block of Array.isArray(content) ? content : []) {
          if (block.type !== 'tool_use') continue;
          const use = block as { id?: unknown; name?: unknown; input?: unknown };
          if (typeof use.id !== 'string' || typeof use.name !== 'string' || use.name.length === 0) continue;
          if (pendingTools.size >= PENDING_TOOLS) pendingTools.delete(pendingTools.keys().next().value!);
          pendingTools.set(use.id.slice(0, 200), { tool: redactCapped(use.name, 200), input: toolInputPointer(use.name, use.input) });
        }
        const text = sidechain ? '' : messageText(message.data);
        if (text.length > 0) turn = { key: lineKey(line), at, session, text: text.slice(0, ANSWER_WINDOW), chars: text.length };
        break;
      }
      default:
        skip(`${line.type.slice(0, 40)} line`);
    }
  }
  if (out.outOfScope) return out;
  await closeTurn();
  if (lastAt === undefined) return out;
  if (file.source === 'subagent') {
    if (await inScope(file.session, lastAt)) {
      if (await record(SubagentStopped, { agentTranscriptPath: file.path }, backfillId('subagent', file.session, file.rel), file.session, lastAt)) out.subagents++;
    }
  } else if (scope.now - lastAt >= ENDED_AFTER_MS && (await inScope(file.session, lastAt)) && !out.liveSessions.has(file.session)) {
    // Transcripts do not record SessionEnd; quiet for an hour, it has ended (a live one has not).
    await record(SessionEnded, { reason: 'other', transcriptPath: file.path }, backfillId('end', file.session, file.rel), file.session, lastAt);
  }
  return out;
}

/** What a failed tool said: string content, or its text blocks. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const block of content) {
    if (block && typeof block === 'object' && (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string') {
      texts.push((block as { text: string }).text);
    }
  }
  return texts.join('\n');
}

async function* emptyLines(): AsyncGenerator<never> {}
