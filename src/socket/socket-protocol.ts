import { z } from 'zod';
import { MAX_LEFT_OUT, MAX_RECALLED_PER_PROMPT } from '../events/recall-events.js';

/** Most characters of a prompt a recall request carries: the query's words come from its start (MAX_QUERY_WORDS). */
export const RECALL_TEXT_CHARS = 8000;

const recalledMemorySchema = z.object({
  id: z.string().max(200),
  file: z.string().max(8192),
  name: z.string().max(1000),
  description: z.string().max(4000),
  score: z.number(),
  signals: z.array(z.string().max(300)).max(10),
});

/** A memory as `search` and `provenance` answer it (see memory-view.ts). */
export const memoryViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  tier: z.string().optional(),
  status: z.string(),
  strength: z.number(),
  confidence: z.number(),
  reinforced: z.number(),
  pinned: z.boolean(),
  project: z.string(),
  file: z.string(),
  created: z.string(),
  modified: z.string(),
  origin: z.string(),
  originSession: z.string().optional(),
  archived: z.object({ at: z.string(), reason: z.string() }).optional(),
  supersededBy: z.string().optional(),
  body: z.string(),
});

/** What the `provenance` op answers (see memory-provenance.ts). */
export const memoryProvenanceSchema = z.object({
  memory: memoryViewSchema,
  total: z.number().int(),
  steps: z.array(z.object({
    seq: z.number().int(),
    type: z.string(),
    ts: z.string(),
    session: z.string(),
    action: z.string(),
    by: z.string().optional(),
    detail: z.string().optional(),
    event: z.object({ id: z.string(), type: z.string(), schemaVersion: z.number().int(), ts: z.string(), session: z.string(), project: z.string(), data: z.unknown() }).optional(),
  })),
});

const leftOutSchema = z.object({
  id: z.string().max(200),
  score: z.number(),
  signals: z.array(z.string().max(300)).max(10),
  why: z.enum(['below-cut', 'past-limit', 'already-recalled']),
});

/**
 * The worker's local socket speaks newline-delimited JSON. Every line that crosses it is
 * checked here: the other end is another process, and possibly another build of engram.
 */
export const requestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('ping') }),
  z.object({
    op: z.literal('stop'),
    /**
     * A hand-over (see hand-over.ts): stop only if this worker's build is older than this one.
     * Absent, stop regardless (`engram worker stop`). Workers from before hand-overs ignore it.
     */
    ifOlderThan: z.string().max(100).optional(),
  }),
  z.object({
    op: z.literal('recall'),
    /**
     * The prompt, at most RECALL_TEXT_CHARS of it: as typed from the prompt hook's entry, as
     * stored (redacted) from earlier builds. The worker redacts it before anything reads it.
     */
    text: z.string().max(RECALL_TEXT_CHARS),
    project: z.string().max(4096),
    /** Its memories already recalled are left out; '' for none. */
    session: z.string().max(200),
  }),
  z.object({
    op: z.literal('search'),
    /** What to look for: the recall pipeline's query (its words come from the start). */
    text: z.string().max(RECALL_TEXT_CHARS),
    /** The directory the question is about; '' for global memories only. */
    project: z.string().max(4096),
    /** At most this many; default the recall cut's. */
    limit: z.number().int().positive().max(100).optional(),
  }),
  z.object({
    op: z.literal('provenance'),
    /** A memory's id, file name or name (see findMemory). */
    query: z.string().min(1).max(1000),
    /** Its project, which wins when a name fits memories of several. */
    project: z.string().max(4096).optional(),
    /** At most this many steps, the newest. Default 500, so one answer line stays within bounds however long the history. */
    limit: z.number().int().positive().max(100_000).optional(),
  }),
  z.object({
    op: z.literal('command'),
    name: z.string().max(40),
    args: z.record(z.string(), z.unknown()),
    /** Whether the CLI's stderr is a terminal, so progress is worth sending. */
    tty: z.boolean(),
  }),
  z.object({
    op: z.literal('ui'),
    /** The viewer's port on 127.0.0.1 when it is not running yet; 0 or absent: a free one. */
    port: z.number().int().min(0).max(65535).optional(),
  }),
]);
export type Request = z.infer<typeof requestSchema>;

export const responseSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('pong'),
    pid: z.number().int(),
    head: z.number().int(),
    startedAt: z.string(),
    /** The worker's build (build-id.ts); absent from workers that predate build ids. */
    build: z.string().max(100).optional(),
  }),
  z.object({ t: z.literal('out'), text: z.string() }),
  z.object({
    t: z.literal('recalled'),
    memories: z.array(recalledMemorySchema).max(MAX_RECALLED_PER_PROMPT),
    /** The best candidates the cut left out (recall.ts LeftOutMemory); absent from older workers. */
    leftOut: z.array(leftOutSchema).max(MAX_LEFT_OUT).optional(),
  }),
  z.object({ t: z.literal('provenance'), provenance: memoryProvenanceSchema }),
  z.object({
    t: z.literal('found'),
    hits: z.array(recalledMemorySchema.extend({ memory: memoryViewSchema.optional() })).max(100),
    problems: z.array(z.string()),
  }),
  z.object({ t: z.literal('err'), text: z.string() }),
  /** The viewer's URL, token included (`engram ui`). */
  z.object({ t: z.literal('ui'), url: z.string().max(200) }),
  z.object({ t: z.literal('progress'), done: z.number(), total: z.number(), unit: z.optional(z.enum(['events', 'bytes'])) }),
  z.object({ t: z.literal('exit'), code: z.number().int() }),
]);
export type Response = z.infer<typeof responseSchema>;
