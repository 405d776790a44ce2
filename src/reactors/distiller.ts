import { contentHash } from '../content-hash.js';
import type { DistillTraceSummary } from '../distill/distill-prompt.js';
import type { DistillAnswer } from '../events/distill-events.js';
import type { Envelope } from '../events/envelope.js';
import { projectMemoryDir } from '../paths.js';
import { PENDING, sessionKey, type DistillSession } from '../projections/distill/distill-queue.js';
import { entriesOf } from '../projections/memories/memories-rows.js';
import type { Reactor, ReactorContext } from '../engine/reactor.js';
import { sessionTrace, traceEpisode } from './session-trace.js';

/** What the prompt is built from; recorded in DistillRequested before the call. */
export interface DistillInputs {
  excerpt: string;
  trace: DistillTraceSummary;
  index: Array<{ name: string; description: string }>;
}

export type LlmOutcome = { ok: true; stdout: string } | { ok: false; reason: string; detail: string };
export type ParsedAnswer = { ok: true; answer: DistillAnswer; notes: string[] } | { ok: false; reason: string; detail: string };

/** What the distiller needs from the world; the worker wires the real ones, tests may wire others. */
export interface DistillerDeps {
  /** Reads a session's transcript: the redacted excerpt and notes on what could not be read. Never throws. */
  capture(transcriptPath: string | undefined, session: string): Promise<{ excerpt: string; notes: string[] }>;
  /** The LLM, or undefined when none is configured (no `claude` on PATH, no ENGRAM_LLM_CMD). */
  llm: { run(prompt: string, signal: AbortSignal): Promise<LlmOutcome> } | undefined;
  prompt(inputs: DistillInputs): string;
  parse(stdout: string): ParsedAnswer;
  /** Redacts and caps a raw answer before it is stored. */
  redact(text: string): string;
}

export interface DistillerOptions {
  /** A session with no SessionEnd is distilled after this long without activity. Default 1 hour. */
  idleMs?: number;
  /** How long after a failed try the retry waits. Default 10 minutes. */
  retryAfterMs?: number;
  /** Tries at the same activity before a session is marked failed. Default 2 (one retry). */
  attempts?: number;
  /** Only this session (`engram distill --session`): distilled whatever its state. */
  only?: string;
  /**
   * How long to wait after an LLM call before the next one in the same round: a backlog (a
   * backfill's months) is spread out instead of fired back to back. A stopping worker cuts the
   * wait short; what was not distilled waits for the next round. Default 0.
   */
  pauseMs?: number;
}

/** DESIGN.md: a session with fewer prompts and fewer tool calls than these is trivial. */
const MIN_PROMPTS = 3;
const MIN_TOOL_CALLS = 5;
const RAW_CAP = 64_000;

/**
 * The distiller: for each session that ended (or went quiet for an hour) with non-trivial
 * activity not yet distilled, it captures the transcript, records a DistillRequested with the
 * prompt's inputs, asks the LLM, and records what came back (DistillCompleted) or why not
 * (DistillFailed). Ids derive from the session, the activity covered and the attempt, so a
 * round repeated after a crash stores each result once. Trivial sessions are marked skipped;
 * without an LLM, the episode comes from the trace. It reads committed rows only, and runs in
 * its own lane: a minute-long call holds up no other reactor.
 */
export function distillerReactor(deps: DistillerDeps, options: DistillerOptions = {}): Reactor {
  const idleMs = options.idleMs ?? 3600_000;
  const retryAfterMs = options.retryAfterMs ?? 600_000;
  const attempts = options.attempts ?? 2;
  return {
    name: 'distiller',
    reads: ['distill', 'memories'],
    async react(ctx): Promise<Envelope[]> {
      const rows = ctx.runner.rowsOf('distill');
      const pending = options.only !== undefined ? [options.only] : await waiting(rows.entries(PENDING));
      const sessions: DistillSession[] = [];
      for (const id of pending) {
        const session = (await rows.get(sessionKey(id))) as DistillSession | undefined;
        if (session) sessions.push(session);
      }
      // Oldest first: a backlog (a backfill of months) is learned in the order it happened, so a
      // later session corroborates an earlier one, as it would have live.
      sessions.sort((a, b) => (a.lastAt < b.lastAt ? -1 : a.lastAt > b.lastAt ? 1 : a.session < b.session ? -1 : 1));
      let called = false;
      for (const session of sessions) {
        if (called && options.pauseMs) await pause(options.pauseMs, ctx.signal);
        if (ctx.signal.aborted) break;
        const now = ctx.clock.now().getTime();
        if (options.only === undefined) {
          if (session.lastSeq <= session.handledSeq) continue;
          if (!session.ended && now - Date.parse(session.lastAt) < idleMs) continue;
          if (session.lastFailure && !session.lastFailure.final && now - Date.parse(session.lastFailure.at) < retryAfterMs) continue;
        }
        // The capture reactor reads an ended session's transcript: give it a minute to record it.
        if (options.only === undefined && awaitsCapture(session, now)) continue;
        called = await distillOne(ctx, deps, session, { attempts, force: options.only !== undefined });
      }
      return [];
    },
  };
}

/** Distills one session; whether it asked the LLM. */
async function distillOne(ctx: ReactorContext, deps: DistillerDeps, session: DistillSession, how: { attempts: number; force: boolean }): Promise<boolean> {
  const tag = contentHash(session.session).slice(0, 16);
  const upToSeq = session.lastSeq;
  const at = ctx.clock.now().toISOString();
  const envelope = (type: string, suffix: string, data: unknown): Envelope => ({
    id: `distill:${tag}:${upToSeq}:${suffix}`, type, schemaVersion: 1, ts: at, session: session.session, project: session.project, data,
  });
  if (!how.force && session.prompts < MIN_PROMPTS && session.toolCalls < MIN_TOOL_CALLS) {
    await ctx.record([envelope('DistillSkipped', 'skipped', { upToSeq, reason: `trivial: ${session.prompts} prompts, ${session.toolCalls} tool calls` })]);
    return false;
  }
  const attempt = session.failures + 1;
  // `engram distill --session` is a new cause each time it is asked: its events get ids of their
  // own, or a second run would be taken for the first one stored twice.
  const key = how.force ? `run-${contentHash(ctx.newId()).slice(0, 10)}` : String(attempt);
  const captured = (await recordedCapture(ctx, session)) ?? (await deps.capture(session.transcriptPath, session.session));
  const inputs: DistillInputs = { excerpt: captured.excerpt, trace: sessionTrace(session), index: await indexOf(ctx, session.project) };
  if (deps.llm === undefined) {
    // Never an emptier episode over a richer one: the LLM's stays when there is no LLM now, and a
    // forced second pass over nothing new would only write the same trace again.
    if (session.via === 'llm' || (how.force && session.distilled && session.lastSeq <= session.handledSeq)) {
      const reason = session.via === 'llm' ? 'kept the episode the LLM wrote: no LLM now, and the trace says less' : 'nothing new since its episode was written from the trace';
      await ctx.record([envelope('DistillSkipped', `${key}:skipped`, { upToSeq, reason })]);
      return false;
    }
    // The session's own day, not the reactor's: a catch-up days later still names when it happened.
    const answer = traceEpisode(session, session.lastAt.slice(0, 10));
    await ctx.record([
      envelope('DistillRequested', `${key}:requested`, { upToSeq, attempt: Math.min(attempt, 10), via: 'trace', ...inputs, promptHash: '' }),
      envelope('DistillCompleted', `${key}:completed`, { upToSeq, attempt: Math.min(attempt, 10), via: 'trace', raw: '', answer, notes: ['no LLM configured: the episode is the trace'], ...learned(session) }),
    ]);
    return false;
  }
  const prompt = deps.prompt(inputs);
  const recordedAttempt = Math.min(attempt, 10);
  await ctx.record([envelope('DistillRequested', `${key}:requested`, { upToSeq, attempt: recordedAttempt, via: 'llm', ...inputs, promptHash: contentHash(prompt) })]);
  const outcome = await deps.llm.run(prompt, ctx.signal);
  // Stopped by the worker: nothing is recorded, the next worker asks again.
  if (ctx.signal.aborted) return true;
  const parsed: ParsedAnswer = outcome.ok ? deps.parse(outcome.stdout) : outcome;
  const raw = outcome.ok ? deps.redact(outcome.stdout).slice(0, RAW_CAP) : undefined;
  if (parsed.ok) {
    await ctx.record([envelope('DistillCompleted', `${key}:completed`, { upToSeq, attempt: recordedAttempt, via: 'llm', raw: raw ?? '', answer: parsed.answer, notes: parsed.notes.slice(0, 20), ...learned(session) })]);
  } else {
    const final = how.force || attempt >= how.attempts;
    await ctx.record([envelope('DistillFailed', `${key}:failed`, { upToSeq, attempt: recordedAttempt, reason: parsed.reason.slice(0, 60), detail: deps.redact(parsed.detail).slice(0, 2000), raw, final })]);
  }
  return true;
}

/** Waits `ms`, or less when the signal fires. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** When the session's activity happened, which dates what it taught (DistillCompleted.learnedAt). */
function learned(session: DistillSession): { learnedAt?: string } {
  return session.lastAt === '' ? {} : { learnedAt: new Date(session.lastAt).toISOString() };
}

async function waiting(entries: AsyncIterable<[string, unknown]>): Promise<string[]> {
  const sessions: string[] = [];
  for await (const [key] of entries) sessions.push(key.slice(PENDING.length));
  return sessions;
}

/** How long after a session's end the distiller waits for its TranscriptCaptured. */
const CAPTURE_WAIT_MS = 60_000;

function awaitsCapture(session: DistillSession, now: number): boolean {
  return session.ended && session.transcriptPath !== undefined && (session.capturedSeq ?? 0) < session.lastSeq && now - Date.parse(session.lastAt) < CAPTURE_WAIT_MS;
}

/** The excerpt the capture reactor recorded at the session's end, when there is one since its latest activity. */
async function recordedCapture(ctx: ReactorContext, session: DistillSession): Promise<{ excerpt: string; notes: string[] } | undefined> {
  const seq = session.capturedSeq ?? 0;
  if (seq === 0) return undefined;
  for await (const batch of ctx.log.read({ from: seq, to: seq })) {
    for (const stored of batch) {
      if (stored.type !== 'TranscriptCaptured') continue;
      try {
        const event = ctx.catalog.readStored(stored);
        if (event.type === 'TranscriptCaptured') return { excerpt: event.data.excerpt, notes: event.data.notes };
      } catch {
        // Unreadable: read the transcript again instead.
      }
    }
  }
  return undefined;
}

/** The project's memories as the prompt lists them: active ones, names and descriptions. */
async function indexOf(ctx: ReactorContext, project: string): Promise<DistillInputs['index']> {
  const memories = ctx.runner.rowsOf('memories');
  return (await entriesOf((prefix) => memories.entries(prefix), projectMemoryDir(project)))
    .filter((entry) => entry.status === 'active' && !entry.archived)
    .map((entry) => ({ name: entry.name, description: entry.description }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, 400);
}
