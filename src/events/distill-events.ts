import * as z from 'zod/mini';
import { defineEvent } from './define-event.js';

/**
 * The distiller's record: what it asked an LLM about a session, what came back, and what people
 * did with the proposals it routed elsewhere. The answer is non-deterministic, so it is stored
 * here and projections fold only what is stored; a rebuild never calls the LLM (DESIGN.md
 * "Capture → distiller"). The envelope's session and project are the distilled session's.
 */

/** Longest raw answer kept: enough for three candidates and an episode, never a runaway. */
export const RAW_ANSWER_CAP = 64_000;
/** Most candidates one answer may carry. */
export const MAX_CANDIDATES = 3;

export const ENTITY_TYPES = ['file', 'repo', 'tool', 'library', 'service', 'person', 'concept', 'ticket', 'command'] as const;
export const RELATIONS = ['uses', 'depends_on', 'part_of', 'configures', 'fixed', 'caused', 'contradicts', 'supersedes', 'related_to'] as const;
export const CANDIDATE_TYPES = ['user', 'feedback', 'project', 'reference', 'value', 'insight'] as const;
export const DESTINATIONS = ['memory', 'claude_md', 'knowledge', 'skip'] as const;

const short = (max: number) => z.string().check(z.maxLength(max));
const entityName = z.string().check(z.minLength(1), z.maxLength(200));

export const graphSchema = z.object({
  entities: z.array(z.object({ name: entityName, type: z.enum(ENTITY_TYPES) })).check(z.maxLength(40)),
  relations: z.array(z.object({ src: entityName, rel: z.enum(RELATIONS), dst: entityName })).check(z.maxLength(60)),
});

const memoryText = {
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: short(1000),
  body: short(8000),
  graph: z.optional(graphSchema),
};

export const candidateSchema = z.object({
  ...memoryText,
  type: z.enum(CANDIDATE_TYPES),
  tier: z.optional(z.enum(['preference', 'procedural', 'fact', 'episodic', 'working', 'idea', 'rule'])),
  contradicts: z.optional(z.array(short(200)).check(z.maxLength(10))),
  destination: z.optional(z.enum(DESTINATIONS)),
});

/** The answer's shape, as the distiller's prompt asks for it and as it is recorded once checked. */
export const distillAnswerSchema = z.object({
  episode: z.object(memoryText),
  candidates: z.array(candidateSchema).check(z.maxLength(MAX_CANDIDATES)),
});

export type DistillAnswer = z.infer<typeof distillAnswerSchema>;
export type DistillCandidate = z.infer<typeof candidateSchema>;
export type MemoryGraph = z.infer<typeof graphSchema>;

/** Which events of the session a distillation covers: its events up to this seq. */
const upToSeq = z.int().check(z.positive());
/** 1 for the first try at a session's activity up to `upToSeq`, 2 for the retry. */
const attempt = z.int().check(z.positive(), z.lte(10));

export const DistillSkipped = defineEvent({
  type: 'DistillSkipped',
  schemaVersion: 1,
  summary: 'A session was too small to distill (fewer than 3 prompts and 5 tool calls): marked done, no LLM call.',
  data: z.object({ upToSeq, reason: short(200) }),
});

export const DistillRequested = defineEvent({
  type: 'DistillRequested',
  schemaVersion: 1,
  summary: 'The distiller is about to ask the LLM about a session: the inputs of its prompt, recorded before the call.',
  data: z.object({
    upToSeq,
    attempt,
    /** llm: the configured command; trace: no LLM here, a plain episode from the trace. */
    via: z.enum(['llm', 'trace']),
    /** The redacted transcript excerpt the prompt quotes (head + tail). */
    excerpt: short(40_000),
    /** What the trace says the session did, as the prompt put it. */
    trace: short(8000),
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
  data: z.object({
    upToSeq,
    attempt,
    via: z.enum(['llm', 'trace']),
    /** The answer as printed, redacted and capped; kept to show why engram believes what it does. */
    raw: short(RAW_ANSWER_CAP),
    answer: distillAnswerSchema,
    /** What checking the answer changed: candidates dropped, text sanitised, and why. */
    notes: z.array(short(300)).check(z.maxLength(20)),
  }),
});

export const DistillFailed = defineEvent({
  type: 'DistillFailed',
  schemaVersion: 1,
  summary: 'Distilling a session failed (timeout, exit code, malformed answer); retried once, then shown by `engram doctor`.',
  data: z.object({
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
  data: z.object({ routeId: short(80), path: short(4096), contentHash: short(64) }),
});

export const RouteDeclined = defineEvent({
  type: 'RouteDeclined',
  schemaVersion: 1,
  summary: 'The user declined a proposal routed to CLAUDE.md or docs/knowledge/.',
  data: z.object({ routeId: short(80) }),
});

export const distillEvents = [DistillSkipped, DistillRequested, DistillCompleted, DistillFailed, RouteAccepted, RouteDeclined] as const;
