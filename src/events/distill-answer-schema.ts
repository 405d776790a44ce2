import * as z from 'zod/mini';
import { TIERS } from './memory-kinds.js';

/**
 * The shape of the distiller's answer, as issue 8 item 3 fixes it: one episode and at most 3
 * candidates, each with an optional knowledge graph. zod/mini, so an event definition can embed
 * the parsed answer's schema.
 */

/** The memory types a candidate may have (`unknown` is only for frontmatter that did not parse). */
export const CANDIDATE_TYPES = ['user', 'feedback', 'project', 'reference', 'value', 'insight'] as const;
export type CandidateType = (typeof CANDIDATE_TYPES)[number];

/** Where a candidate goes (item 5); `memory` when the answer says nothing. */
export const DESTINATIONS = ['memory', 'claude_md', 'knowledge', 'skip'] as const;
export type Destination = (typeof DESTINATIONS)[number];

export const ENTITY_TYPES = ['file', 'repo', 'tool', 'library', 'service', 'person', 'concept', 'ticket', 'command'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const RELATION_NAMES = [
  'uses',
  'depends_on',
  'part_of',
  'configures',
  'fixed',
  'caused',
  'contradicts',
  'supersedes',
  'related_to',
] as const;
export type RelationName = (typeof RELATION_NAMES)[number];

/** How many candidates one answer may carry; the rest are dropped with a note. */
export const MAX_CANDIDATES = 3;

/**
 * Lengths a sanitised answer keeps (longer text is cut, with a note). Well under the memory
 * events' own limits, so a sanitised answer always fits them.
 */
export const ANSWER_CAPS = {
  name: 100,
  description: 300,
  body: 6000,
  entityName: 120,
  entities: 30,
  relations: 50,
  contradicts: 5,
} as const;

// Loose bounds only: what the model wrote is kept whole until the sanitiser caps it (with a
// note), so a long-winded but sound answer is not refused; an absurd one is a wrong shape.
const HARD_TEXT = 200_000;
const HARD_LIST = 1000;

const text = z.string().check(z.maxLength(HARD_TEXT));
const required = z.string().check(z.minLength(1), z.maxLength(HARD_TEXT));

export const GraphEntity = z.object({ name: required, type: z.string().check(z.maxLength(HARD_TEXT)) });
export const GraphRelation = z.object({ src: required, rel: z.string().check(z.maxLength(HARD_TEXT)), dst: required });

/**
 * A graph as the model wrote it: entity types and relation names are checked by the sanitiser
 * (an unknown one drops that entity or relation with a note, not the whole answer).
 */
export const RawGraph = z.object({
  entities: z._default(z.array(GraphEntity).check(z.maxLength(HARD_LIST)), []),
  relations: z._default(z.array(GraphRelation).check(z.maxLength(HARD_LIST)), []),
});

export const RawEpisode = z.object({
  name: required,
  description: text,
  body: required,
  graph: z.optional(RawGraph),
});

/**
 * A candidate as the model wrote it. An unknown `type` refuses the answer (checked before this
 * schema, for its own reason code); an unknown tier or destination is only dropped, with a note.
 */
export const RawCandidate = z.object({
  type: z.enum(CANDIDATE_TYPES),
  tier: z.optional(z.string().check(z.maxLength(HARD_TEXT))),
  name: required,
  description: text,
  body: required,
  /** A name or file name, or a list of them. */
  contradicts: z.optional(z.union([z.string().check(z.maxLength(HARD_TEXT)), z.array(z.string().check(z.maxLength(HARD_TEXT))).check(z.maxLength(HARD_LIST))])),
  destination: z.optional(z.string().check(z.maxLength(HARD_TEXT))),
  graph: z.optional(RawGraph),
});

/** The answer as the model must write it, once cut to its first 3 candidates. */
export const RawDistillAnswer = z.object({
  episode: RawEpisode,
  candidates: z.array(RawCandidate).check(z.maxLength(MAX_CANDIDATES)),
});
export type RawDistillAnswer = z.infer<typeof RawDistillAnswer>;

// What a sanitised answer holds: the same shape, tightened to the caps and the vocabularies.
const capped = (cap: number) => z.string().check(z.maxLength(cap));

export const DistillGraph = z.object({
  entities: z.array(z.object({ name: capped(ANSWER_CAPS.entityName), type: z.enum(ENTITY_TYPES) })).check(z.maxLength(ANSWER_CAPS.entities)),
  relations: z
    .array(z.object({ src: capped(ANSWER_CAPS.entityName), rel: z.enum(RELATION_NAMES), dst: capped(ANSWER_CAPS.entityName) }))
    .check(z.maxLength(ANSWER_CAPS.relations)),
});
export type DistillGraph = z.infer<typeof DistillGraph>;

export const DistillEpisode = z.object({
  name: capped(ANSWER_CAPS.name).check(z.minLength(1)),
  description: capped(ANSWER_CAPS.description),
  body: capped(ANSWER_CAPS.body).check(z.minLength(1)),
  graph: z.optional(DistillGraph),
});
export type DistillEpisode = z.infer<typeof DistillEpisode>;

export const DistillCandidate = z.object({
  type: z.enum(CANDIDATE_TYPES),
  tier: z.optional(z.enum(TIERS)),
  name: capped(ANSWER_CAPS.name).check(z.minLength(1)),
  description: capped(ANSWER_CAPS.description),
  body: capped(ANSWER_CAPS.body).check(z.minLength(1)),
  contradicts: z.optional(z.array(capped(ANSWER_CAPS.name)).check(z.maxLength(ANSWER_CAPS.contradicts))),
  destination: z.enum(DESTINATIONS),
  graph: z.optional(DistillGraph),
});
export type DistillCandidate = z.infer<typeof DistillCandidate>;

/** A parsed, sanitised answer: what a distill-completed event may record as its result. */
export const DistillAnswer = z.object({
  episode: DistillEpisode,
  candidates: z.array(DistillCandidate).check(z.maxLength(MAX_CANDIDATES)),
});
export type DistillAnswer = z.infer<typeof DistillAnswer>;
