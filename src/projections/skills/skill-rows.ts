import type { EventData } from '../../events/define-event.js';
import type { ownSkill, SkillMatched, SkillsCurated } from '../../events/skill-events.js';
import type * as z from 'zod/mini';

/** The skill-suggestions projection's rows and keys (see skill-suggestions.ts). */

export type OwnSkill = z.infer<typeof ownSkill>;
export type CuratorFinding = EventData<typeof SkillsCurated>['findings'][number];
export type SkillMatch = EventData<typeof SkillMatched>;

/** The own skills of one scope: project '' is `<claude>/skills`, any other that project's `.claude/skills`. */
export interface SkillsRow {
  readonly project: string;
  readonly skills: readonly OwnSkill[];
  /** When engram first read each skill (by name): a captured skill never used ages from then. */
  readonly firstSeen: Readonly<Record<string, string>>;
}

/** A memory that could become a skill (see isSkillEligible), as the suggestion quotes it. */
export interface EligibleMemory {
  readonly memoryId: string;
  readonly name: string;
  readonly description: string;
  /** Its file, under Claude Code's config directory. */
  readonly path: string;
}

/**
 * One memory directory's suggestions: its eligible memories (sorted by id), the matches recorded
 * for them, the hash of the skills they are matched against, and the curator's latest findings
 * for the scope. Project '' is the global directory and the user's own skills.
 */
export interface SuggestRow {
  readonly project: string;
  /** Hash of the names and descriptions of the skills this directory's memories are matched against. */
  readonly skillsKey: string;
  readonly memories: readonly EligibleMemory[];
  readonly matches: Readonly<Record<string, SkillMatch>>;
  readonly curator: readonly CuratorFinding[];
  /** When the curator last looked ('' before it ever did). */
  readonly curatedAt: string;
}

export const skillsKeyOf = (project: string): string => `skills:${project}`;
export const suggestKeyOf = (project: string): string => `suggest:${project}`;
export const usedKeyOf = (project: string, name: string): string => `used:${project}\n${name}`;
/** When a SKILL.md was last seen written in each project (by its PostToolUse event): `{ [project]: ts }`, keys sorted. */
export const CAPTURE_SEEN = 'capture-seen';
/** `project\nmemoryId` of every eligible memory without a match for its current descriptions. */
export const UNMATCHED = 'unmatched';
/** Every project with a suggestion row, sorted: a change of the user's skills reaches them all. */
export const PROJECTS = 'projects';
/** When the curator last ran: `{ at }`. */
export const CURATED = 'curated';
/** How many captured skills are known, over every scope: `{ count }`, so the curator knows in one read whether it has anything to age. */
export const CAPTURED = 'captured';

export type SkillSuggestionsRow =
  | SkillsRow
  | SuggestRow
  | { readonly at: string }
  | { readonly count: number }
  | Readonly<Record<string, string>>
  | readonly string[];
