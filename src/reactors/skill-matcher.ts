import type { Envelope } from '../events/envelope.js';
import { SkillMatched } from '../events/skill-events.js';
import { cosine, type Embedder } from '../indexes/embedder.js';
import { matchKey, skillsKey, skillText } from '../projections/skills/skill-eligibility.js';
import { skillsKeyOf, suggestKeyOf, UNMATCHED, type OwnSkill, type SkillsRow, type SuggestRow } from '../projections/skills/skill-rows.js';
import type { Reactor } from '../engine/reactor.js';

/**
 * The cosine at or above which a memory is said to belong in an existing skill. DESIGN.md's
 * seed is 0.70, calibrated for another model; on USE Lite (the embedded default) absolute cosines
 * run lower, and bench/skill-match-bench.ts puts the best cut of its labelled set at 0.55 (18 of
 * 20 verdicts right, 13 at 0.70). `ENGRAM_SKILL_MATCH_THRESHOLD` overrides it.
 */
export const SKILL_MATCH_THRESHOLD = 0.55;

export interface SkillMatcherOptions {
  /** The model memories and skills are embedded with. Default none: every eligible memory is then a new skill. */
  embedder?: Embedder;
  /** Cosine at or above which the closest skill is the one to update. Default SKILL_MATCH_THRESHOLD. */
  threshold?: number;
}

/**
 * Matches each eligible memory that has no match for its current descriptions (the projection's
 * `unmatched` row) against the own skills it could update, by embedding `<skill>: <description>`
 * and the memory's description, and records the verdict as SkillMatched. The verdict is kept per
 * descriptions (its matchKey), so the model is loaded only when a memory's description or a
 * skill's changes; a round with nothing unmatched reads one row and embeds nothing.
 */
export function skillMatcherReactor(options: SkillMatcherOptions = {}): Reactor {
  const threshold = options.threshold ?? SKILL_MATCH_THRESHOLD;
  const embedder = options.embedder;
  return {
    name: 'skill-matcher',
    reads: ['skill-suggestions'],
    async react(ctx): Promise<Envelope[]> {
      const rows = ctx.runner.rowsOf('skill-suggestions');
      const unmatched = ((await rows.get(UNMATCHED)) as readonly string[] | undefined) ?? [];
      if (unmatched.length === 0) return [];
      const user = ((await rows.get(skillsKeyOf(''))) as SkillsRow | undefined)?.skills ?? [];
      const events: Envelope[] = [];
      const byProject = new Map<string, string[]>();
      for (const entry of unmatched) {
        const cut = entry.indexOf('\n');
        const project = entry.slice(0, cut);
        byProject.set(project, [...(byProject.get(project) ?? []), entry.slice(cut + 1)]);
      }
      for (const [project, ids] of byProject) {
        ctx.signal.throwIfAborted();
        const row = (await rows.get(suggestKeyOf(project))) as SuggestRow | undefined;
        if (!row) continue;
        const own = project === '' ? [] : (((await rows.get(skillsKeyOf(project))) as SkillsRow | undefined)?.skills ?? []);
        const skills: OwnSkill[] = [...user, ...own];
        // The rows are read one by one: if they disagree (a round in between), the next round matches.
        if (skillsKey(skills) !== row.skillsKey) continue;
        const memories = row.memories.filter((memory) => ids.includes(memory.memoryId));
        const verdicts = await match(memories.map((memory) => memory.description), skills, embedder, threshold, ctx.signal);
        memories.forEach((memory, i) => {
          const verdict = verdicts[i]!;
          const key = matchKey(memory.description, row.skillsKey);
          events.push({
            id: `skill-match:${memory.memoryId.slice(0, 40)}:${key}`,
            type: SkillMatched.type,
            schemaVersion: SkillMatched.schemaVersion,
            ts: ctx.clock.now().toISOString(),
            session: '',
            project,
            data: { memoryId: memory.memoryId, matchKey: key, model: embedder?.model ?? 'none', threshold, ...verdict },
          });
        });
      }
      return events;
    },
  };
}

type Verdict = { skill?: { name: string; scope: 'user' | 'project' }; cosine?: number };

/** The closest skill to each description, kept when its cosine reaches the threshold. */
export async function match(descriptions: readonly string[], skills: readonly OwnSkill[], embedder: Embedder | undefined, threshold: number, signal?: AbortSignal): Promise<Verdict[]> {
  if (descriptions.length === 0) return [];
  if (skills.length === 0 || embedder === undefined) return descriptions.map(() => ({}));
  const vectors = await embedder.embed([...descriptions, ...skills.map(skillText)], signal);
  const skillVectors = vectors.slice(descriptions.length);
  return descriptions.map((_, i) => {
    let best = -Infinity;
    let bestSkill: OwnSkill | undefined;
    skillVectors.forEach((vector, j) => {
      const score = cosine(vectors[i]!, vector);
      // Ties go to the project's own skill, listed last: the narrower home for a project's rule.
      if (score >= best) {
        best = score;
        bestSkill = skills[j];
      }
    });
    const rounded = Math.round(best * 10_000) / 10_000;
    return bestSkill && best >= threshold ? { skill: { name: bestSkill.name, scope: bestSkill.scope }, cosine: rounded } : { cosine: rounded };
  });
}
