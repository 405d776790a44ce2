import { contentHash } from '../../content-hash.js';
import type { MemoryRow } from '../memories/memory-row.js';
import type { OwnSkill } from './skill-rows.js';

/** DESIGN.md "Skills": a memory this sure, or said at least twice, is worth a skill. */
export const ELIGIBLE_CONFIDENCE = 0.7;

/**
 * Whether a memory could become a skill: a preference or a procedure (by tier, or by type when
 * it has no tier: feedback and user memories are both), active, confident or reinforced, and not
 * already implemented in a skill or declined.
 */
export function isSkillEligible(row: MemoryRow): boolean {
  const kind = row.tier === 'preference' || row.tier === 'procedural' || (row.tier === undefined && (row.type === 'feedback' || row.type === 'user'));
  return (
    kind &&
    row.status === 'active' &&
    row.archived === undefined &&
    (row.confidence >= ELIGIBLE_CONFIDENCE || row.reinforced >= 1) &&
    [row.implementedIn ?? []].flat().every((skill) => skill.trim() === '')
  );
}

/** The text a skill is embedded as: `<skill>: <description>`. */
export function skillText(skill: Pick<OwnSkill, 'name' | 'description'>): string {
  return `${skill.name}: ${skill.description}`;
}

/** Hash of the skills a directory's memories are matched against, in a stable order. */
export function skillsKey(skills: readonly OwnSkill[]): string {
  const texts = skills.map((skill) => `${skill.scope}/${skillText(skill)}`).sort();
  return contentHash(texts.join('\n'));
}

/** What a match is valid for: the memory's description and the skills it was matched against. */
export function matchKey(description: string, skills: string): string {
  return contentHash(`${skills}\n${description}`);
}
