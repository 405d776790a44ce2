import type { CuratorFinding, OwnSkill, SkillsRow } from '../projections/skills/skill-rows.js';
import { usedKeyOf } from '../projections/skills/skill-rows.js';

export interface CuratorThresholds {
  /** Days unused after which a captured skill is reported stale. Default 30 (`ENGRAM_CURATOR_STALE_DAYS`). */
  staleDays?: number;
  /** Days unused after which a captured skill may be archived. Default 90 (`ENGRAM_CURATOR_ARCHIVE_DAYS`). */
  archiveDays?: number;
}

export interface CuratedSkill {
  skill: OwnSkill;
  /** '' for a user skill, else its project. */
  project: string;
  finding: CuratorFinding;
}

const DAY_MS = 24 * 3600_000;

/** A rows reader, as both a reactor (committed rows) and a command can give one. */
export interface CuratorRows {
  skillRows(): AsyncIterable<SkillsRow>;
  lastUse(key: string): Promise<string | undefined>;
}

/**
 * What the curator finds at `now` (DESIGN.md "Skills"): among the skills marked captured and not
 * pinned, those unused for `staleDays` are stale, for `archiveDays` archivable; a use is the
 * Skill tool or a read of the SKILL.md, and a skill never used ages from when engram first read
 * it. Hand-written and vendored skills are never looked at. Sorted by scope, then name.
 */
export async function curateSkills(rows: CuratorRows, now: Date, thresholds: CuratorThresholds = {}): Promise<CuratedSkill[]> {
  const staleDays = thresholds.staleDays ?? 30;
  const archiveDays = thresholds.archiveDays ?? 90;
  const found: CuratedSkill[] = [];
  for await (const row of rows.skillRows()) {
    for (const skill of row.skills) {
      if (!skill.captured || skill.pinned) continue;
      const used = await rows.lastUse(usedKeyOf(row.project, skill.name));
      const first = row.firstSeen[skill.name] ?? now.toISOString();
      const lastUsed = used !== undefined && used > first ? used : first;
      const days = Math.max(0, Math.floor((now.getTime() - Date.parse(lastUsed)) / DAY_MS));
      if (days < staleDays) continue;
      found.push({
        skill,
        project: row.project,
        finding: { name: skill.name, scope: skill.scope, project: row.project, lastUsed, days, verdict: days >= archiveDays ? 'archivable' : 'stale' },
      });
    }
  }
  return found.sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : a.skill.name < b.skill.name ? -1 : 1));
}
