import * as z from 'zod/mini';
import { candidateSchema, RAW_ANSWER_CAP } from './distill-events.js';
import { defineEvent } from './define-event.js';

/**
 * Skills (DESIGN.md "Skills"): what the user's own skill files say, which memory could become
 * which skill, what the user answered, what the curator found and moved, and the post-turn audit.
 * A skill file's existence and content, an embedding model's verdict, the passing of time and an
 * LLM's answer are all outside the log, so each enters it here before a projection folds it.
 */

const short = (max: number) => z.string().check(z.maxLength(max));
const skillName = z.string().check(z.minLength(1), z.maxLength(200));
const memoryId = z.string().check(z.minLength(1), z.maxLength(200));
const isoTime = z.iso.datetime({ offset: true });
/** user: `<claude>/skills/<name>`; project: `<project>/.claude/skills/<name>`. */
const scope = z.enum(['user', 'project']);

export const ownSkill = z.object({
  name: skillName,
  scope,
  /** The frontmatter's description ('' when it has none). */
  description: short(1000),
  /** contentHash of the SKILL.md. */
  hash: short(64),
  /** Marked `engram: captured` (top level or under `metadata:`): written by the agent on engram's policy, so the curator may age it. */
  captured: z.boolean(),
  /** `pinned: true`: the curator never reports or moves it. */
  pinned: z.boolean(),
});

export const SkillsScanned = defineEvent({
  type: 'SkillsScanned',
  schemaVersion: 1,
  summary: 'The user\'s own skill files of one scope, as read: the envelope\'s project \'\' for <claude>/skills, else that project\'s .claude/skills. Vendored ones are left out.',
  data: () => z.object({ skills: z.array(ownSkill).check(z.maxLength(500)) }),
});

export const SkillMatched = defineEvent({
  type: 'SkillMatched',
  schemaVersion: 1,
  summary: 'A memory eligible to become a skill was matched by embedding against the own skills it could update: the closest, and whether it clears the threshold.',
  data: () => z.object({
    memoryId,
    /** Hash of the model, the memory's description and the skills' names and descriptions: a later change of any asks again. */
    matchKey: short(64),
    model: short(120),
    /** The closest skill at or above the threshold; absent: a new skill. */
    skill: z.optional(z.object({ name: skillName, scope })),
    /** The closest skill's cosine (absent when there was no skill or no model). */
    cosine: z.optional(z.number()),
    threshold: z.number(),
  }),
});

export const SkillSuggestionAccepted = defineEvent({
  type: 'SkillSuggestionAccepted',
  schemaVersion: 1,
  summary: 'The user accepted a memory-to-skill suggestion: the memory says `implemented_in: <skill>` and is suggested no more.',
  data: () => z.object({ memoryId, skill: skillName }),
});

export const SkillSuggestionDeclined = defineEvent({
  type: 'SkillSuggestionDeclined',
  schemaVersion: 1,
  summary: 'The user declined a memory-to-skill suggestion: the memory says `implemented_in: declined` and is suggested no more.',
  data: () => z.object({ memoryId }),
});

const finding = z.object({
  name: skillName,
  scope,
  /** The project of a project skill; '' for a user skill. */
  project: short(4096),
  /** The last use (the Skill tool or a read of its SKILL.md), else when engram first read it. */
  lastUsed: isoTime,
  days: z.int().check(z.nonnegative()),
  verdict: z.enum(['stale', 'archivable', 'archived']),
});

export const SkillsCurated = defineEvent({
  type: 'SkillsCurated',
  schemaVersion: 1,
  summary: 'The curator looked at the captured skills: those unused 30 days (stale), 90 days (archivable), and those it moved to _archive/.',
  data: () => z.object({ at: isoTime, findings: z.array(finding).check(z.maxLength(500)) }),
});

export const SkillArchived = defineEvent({
  type: 'SkillArchived',
  schemaVersion: 1,
  summary: 'The curator moved a captured skill\'s directory to _archive/ beside it (ENGRAM_CURATOR_ARCHIVE=1); nothing is deleted.',
  data: () => z.object({ name: skillName, scope, from: short(4096), to: short(4096) }),
});

/** The turn an audit is about: the TurnStopped event's id. */
const turnId = z.string().check(z.minLength(8), z.maxLength(80));

export const TurnAuditRequested = defineEvent({
  type: 'TurnAuditRequested',
  schemaVersion: 1,
  summary: 'The post-turn audit (ENGRAM_AUDIT=1) is about to ask the LLM about a finished turn: the turn as the prompt quotes it, recorded before the call.',
  data: () => z.object({ turnId, prompt: short(20_000), answer: short(4_000), promptHash: short(64) }),
});

export const TurnAuditCompleted = defineEvent({
  type: 'TurnAuditCompleted',
  schemaVersion: 1,
  summary: 'The LLM named the durable facts of a turn; each goes through the promotion gate as a provisional candidate (or reinforces what it repeats).',
  data: () => z.object({
    turnId,
    raw: short(RAW_ANSWER_CAP),
    facts: z.array(candidateSchema).check(z.maxLength(3)),
    notes: z.array(short(300)).check(z.maxLength(20)),
  }),
});

export const TurnAuditFailed = defineEvent({
  type: 'TurnAuditFailed',
  schemaVersion: 1,
  summary: 'The post-turn audit of a turn failed (timeout, exit code, malformed answer); it is not retried.',
  data: () => z.object({ turnId, reason: short(60), detail: short(2000) }),
});

export const skillEvents = [
  SkillsScanned,
  SkillMatched,
  SkillSuggestionAccepted,
  SkillSuggestionDeclined,
  SkillsCurated,
  SkillArchived,
  TurnAuditRequested,
  TurnAuditCompleted,
  TurnAuditFailed,
] as const;
