import * as z from 'zod/mini';
import { DESTINATIONS, DistillCandidate, DistillEpisode, DistillGraph, MAX_CANDIDATES } from './distill-answer-schema.js';
import { defineEvent } from './define-event.js';

/**
 * The distiller's record: what it asked an LLM about a session, what came back, and what people
 * did with the proposals it routed elsewhere. The answer is non-deterministic, so it is stored
 * here and projections fold only what is stored; a rebuild never calls the LLM (DESIGN.md
 * "Capture → distiller"). The envelope's session and project are the distilled session's.
 */

/** Longest raw answer kept: enough for three candidates and an episode, never a runaway. */
export const RAW_ANSWER_CAP = 64_000;
const short = (max: number) => z.string().check(z.maxLength(max));

/**
 * The answer as recorded: the sanitised shape src/distill/ checks it into (one definition), with
 * `destination` optional so a recorded answer written before routing existed still reads.
 */
export const candidateSchema = z.object({ ...DistillCandidate.shape, destination: z.optional(z.enum(DESTINATIONS)) });
export const distillAnswerSchema = z.object({
  episode: DistillEpisode,
  candidates: z.array(candidateSchema).check(z.maxLength(MAX_CANDIDATES)),
});

export type DistillAnswer = z.infer<typeof distillAnswerSchema>;
export type RecordedCandidate = z.infer<typeof candidateSchema>;
export type MemoryGraph = DistillGraph;

/** Which events of the session a distillation covers: its events up to this seq. */
const upToSeq = z.int().check(z.positive());
/** 1 for the first try at a session's activity up to `upToSeq`, 2 for the retry. */
const attempt = z.int().check(z.positive(), z.lte(10));

export const DistillSkipped = defineEvent({
  type: 'DistillSkipped',
  schemaVersion: 1,
  summary: 'A session was too small to distill (fewer than 3 prompts and 5 tool calls): marked done, no LLM call.',
  data: () => z.object({ upToSeq, reason: short(200) }),
});

export const DistillRequested = defineEvent({
  type: 'DistillRequested',
  schemaVersion: 1,
  summary: 'The distiller is about to ask the LLM about a session: the inputs of its prompt, recorded before the call.',
  data: () => z.object({
    upToSeq,
    attempt,
    /** llm: the configured command; trace: no LLM here, a plain episode from the trace. */
    via: z.enum(['llm', 'trace']),
    /** The redacted transcript excerpt the prompt quotes (head + tail). */
    excerpt: short(40_000),
    /** What the trace says the session did, as the prompt put it. */
    trace: z.object({
      filesTouched: z.optional(z.array(short(300)).check(z.maxLength(40))),
      commands: z.optional(z.array(short(300)).check(z.maxLength(40))),
      failures: z.optional(z.array(short(300)).check(z.maxLength(40))),
      counts: z.optional(z.record(z.string().check(z.maxLength(40)), z.number())),
    }),
    /** The names and descriptions of the memories the prompt listed. */
    index: z.array(z.object({ name: short(200), description: short(1000) })).check(z.maxLength(400)),
    /** Hash of the prompt sent, so a re-run with the same inputs can be recognised. */
    promptHash: short(64),
  }),
});

export const DistillCompleted = defineEvent({
  type: 'DistillCompleted',
  schemaVersion: 1,
  summary: 'The LLM answered about a session (or, without one, the trace made an episode): the raw answer and the checked result.',
  data: () => z.object({
    upToSeq,
    attempt,
    via: z.enum(['llm', 'trace']),
    /** The answer as printed, redacted and capped; kept to show why engram believes what it does. */
    raw: short(RAW_ANSWER_CAP),
    answer: distillAnswerSchema,
    /** What checking the answer changed: candidates dropped, text sanitised, and why. */
    notes: z.array(short(300)).check(z.maxLength(20)),
    /**
     * When what it learned happened: the session's last activity. The memories it makes are
     * dated by it, so a session backfilled months later brings memories that have aged since.
     * Events recorded before it existed have none and are dated by their own time.
     */
    learnedAt: z.optional(z.iso.datetime()),
  }),
});

export const DistillFailed = defineEvent({
  type: 'DistillFailed',
  schemaVersion: 1,
  summary: 'Distilling a session failed (timeout, exit code, malformed answer); retried once, then shown by `engram doctor`.',
  data: () => z.object({
    upToSeq,
    attempt,
    /** A stable code: timeout, aborted, exit, not-json, wrong-shape, … */
    reason: short(60),
    detail: short(2000),
    /** The raw answer, if there was one, redacted and capped. */
    raw: z.optional(short(RAW_ANSWER_CAP)),
    /** No more tries: the next is `engram distill --session`. */
    final: z.boolean(),
  }),
});

export const RouteAccepted = defineEvent({
  type: 'RouteAccepted',
  schemaVersion: 1,
  summary: 'The user accepted a proposal routed to CLAUDE.md or docs/knowledge/: engram wrote it there, once.',
  data: () => z.object({ routeId: short(80), path: short(4096), contentHash: short(64) }),
});

export const RouteDeclined = defineEvent({
  type: 'RouteDeclined',
  schemaVersion: 1,
  summary: 'The user declined a proposal routed to CLAUDE.md or docs/knowledge/.',
  data: () => z.object({ routeId: short(80) }),
});

export const MemoryGraphed = defineEvent({
  type: 'MemoryGraphed',
  schemaVersion: 1,
  summary: 'The LLM named the entities and relations of a memory that had no graph (`engram graph backfill`).',
  data: () => z.object({ memoryId: z.string().check(z.minLength(1), z.maxLength(200)), graph: DistillGraph }),
});

export const distillEvents = [DistillSkipped, DistillRequested, DistillCompleted, DistillFailed, RouteAccepted, RouteDeclined, MemoryGraphed] as const;
