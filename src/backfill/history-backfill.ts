import * as z from 'zod/mini';
import { readJsonlLines } from '../capture/read-jsonl-lines.js';
import { parseJsonlLine } from '../capture/parse-jsonl-line.js';
import { contentHash } from '../content-hash.js';
import type { Envelope } from '../events/envelope.js';
import { PROMPT_CAP, PromptSubmitted } from '../events/hook-events.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { backfillEvent } from './backfill-event.js';
import { backfillId } from './backfill-id.js';
import type { BackfillScope } from './backfill-scope.js';
import { bump, type Counts } from './backfill-tally.js';

/**
 * One line of `history.jsonl`: a prompt as the user typed it. `sessionId` came with later
 * versions of Claude Code; `timestamp` is milliseconds (an ISO string is read too).
 */
const historyLine = z.looseObject({
  display: z.string(),
  timestamp: z.union([z.number(), z.string()]),
  project: z.optional(z.string().check(z.maxLength(4096))),
  sessionId: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});

/** What the transcripts already say, so history adds only what they do not. */
export interface KnownTranscripts {
  /** Sessions that have a transcript file. */
  sessions: ReadonlySet<string>;
  /** Per project, each transcript's first and last time (ms): older history lines with no session id fall in one or not. */
  spans: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>;
}

export interface HistoryOutcome {
  lines: number;
  events: number;
  prompts: number;
  skipped: Counts;
  redacted: Counts;
  sessions: Set<string>;
  liveSessions: Set<string>;
}

/** Older history lines (no session id) of one project this close together are one session. */
const SESSION_GAP_MS = 3600_000;
/** A slash command typed alone (`/clear`, `/compact`) is not a prompt the agent answered. */
const SLASH_COMMAND = /^\/[\w:-]+$/;

/**
 * Prompts of sessions known only from `history.jsonl` (their transcripts cleaned up) become
 * prompt-only sessions: one PromptSubmitted per line, redacted as the prompt hook redacts, at the
 * line's time. Lines whose session has a transcript are passed over (the transcript says more).
 * Lines of older versions carry no session id: those no transcript of their project covers are
 * grouped into sessions by project and an hour's gap, named `history-<hash>` after the project
 * and their first time, so every run groups them alike.
 */
export async function backfillHistory(
  file: { path: string; bytes: number },
  known: KnownTranscripts,
  scope: BackfillScope,
  emit: (event: Envelope) => Promise<void>,
): Promise<HistoryOutcome> {
  const out: HistoryOutcome = { lines: 0, events: 0, prompts: 0, skipped: {}, redacted: {}, sessions: new Set(), liveSessions: new Set() };
  const skip = (reason: string) => bump(out.skipped, reason);
  const groups = new Map<string, { session: string; lastAt: number }>();
  const liveFrom = new Map<string, number | undefined>();
  if (file.bytes === 0) return out;
  for await (const raw of readJsonlLines(file.path, { end: file.bytes - 1, signal: scope.signal })) {
    scope.progress(raw.bytes);
    const parsed = parseJsonlLine(raw, historyLine);
    if (parsed.kind === 'empty') continue;
    out.lines++;
    if (parsed.kind === 'skip') {
      skip(parsed.reason === 'invalid' ? 'not a history line' : parsed.reason);
      continue;
    }
    const line = parsed.data;
    const at = typeof line.timestamp === 'number' ? line.timestamp : Date.parse(line.timestamp);
    if (!Number.isFinite(at)) {
      skip('no timestamp');
      continue;
    }
    const project = line.project;
    if (project === undefined || project.length === 0) {
      skip('no project');
      continue;
    }
    let session = line.sessionId;
    if (session !== undefined && known.sessions.has(session)) {
      skip('in a transcript');
      continue;
    }
    if (session === undefined) {
      if (known.spans.get(project)?.some(([from, to]) => at >= from && at <= to)) {
        skip('in a transcript');
        continue;
      }
      const group = groups.get(project);
      if (group && at >= group.lastAt && at - group.lastAt <= SESSION_GAP_MS) group.lastAt = at;
      else groups.set(project, { session: `history-${contentHash(`${project}\n${at}`).slice(0, 20)}`, lastAt: at });
      session = groups.get(project)!.session;
    }
    if (scope.project !== undefined && !scope.project(project)) {
      skip('other project');
      continue;
    }
    if (scope.since !== undefined && at < scope.since) {
      skip('before --since');
      continue;
    }
    if (!liveFrom.has(session)) liveFrom.set(session, await scope.liveFrom(session));
    const live = liveFrom.get(session);
    if (live !== undefined) {
      out.liveSessions.add(session);
      if (at >= live) {
        skip('captured live');
        continue;
      }
    }
    const text = line.display;
    if (text.trim().length === 0 || SLASH_COMMAND.test(text.trim())) {
      skip(text.trim().length === 0 ? 'no text' : 'slash command');
      continue;
    }
    const data = { prompt: redactCapped(text, PROMPT_CAP), chars: text.length, truncated: text.length > PROMPT_CAP };
    const id = backfillId('history', session, at, contentHash(text));
    const event = backfillEvent(PromptSubmitted, data, { id, at, session, project }, out.redacted);
    if (!event) {
      skip('could not be made a valid event');
      continue;
    }
    out.events++;
    out.prompts++;
    out.sessions.add(session);
    await emit(event);
  }
  return out;
}
