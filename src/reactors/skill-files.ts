import { contentHash } from '../content-hash.js';
import type { Envelope } from '../events/envelope.js';
import { SkillsScanned } from '../events/skill-events.js';
import type { ProjectStats } from '../projections/project-stats.js';
import { CAPTURE_SEEN, skillsKeyOf, type OwnSkill, type SkillsRow } from '../projections/skills/skill-rows.js';
import { readOwnSkills } from '../skills/read-own-skills.js';
import type { Reactor, ReactorContext } from '../engine/reactor.js';

export interface SkillFilesOptions {
  /** A scope's skill files are read again after this long. Default 5 min. */
  rescanMs?: number;
  /** Install manifests of user skills, beside `<claude>/SKILLS.lock` (see readOwnSkills). Default none. */
  userManifests?: readonly string[];
}

/**
 * Reads the user's own skill files (`<claude>/skills` and each known project's `.claude/skills`)
 * and records them as SkillsScanned when they differ from what the skill-suggestions projection
 * holds, so that projection stays a pure function of the log (DESIGN.md invariant 4). A project
 * is read again at once when the projection saw a SKILL.md written there (a capture, through the
 * PostToolUse event of that Write), and every project every `rescanMs`; a round between costs
 * one row read.
 */
export function skillFilesReactor(options: SkillFilesOptions = {}): Reactor {
  const rescanMs = options.rescanMs ?? 5 * 60_000;
  // Reactor instance state, not projection state: forgetting it only costs a read of the files.
  let sweptAt = Number.NEGATIVE_INFINITY;
  let captures: Readonly<Record<string, string>> = {};
  return {
    name: 'skill-files',
    reads: ['stats', 'skill-suggestions'],
    async react(ctx: ReactorContext): Promise<Envelope[]> {
      const now = ctx.clock.now();
      const rows = ctx.runner.rowsOf('skill-suggestions');
      const targets = new Set<string>();
      // A SKILL.md written since the last round: that project and the user's scope, at once.
      const seen = ((await rows.get(CAPTURE_SEEN)) as Readonly<Record<string, string>> | undefined) ?? {};
      for (const [project, at] of Object.entries(seen)) if (captures[project] !== at) targets.add(project).add('');
      captures = seen;
      // Every rescanMs, every known project: what changed by other means (an editor, git pull).
      if (now.getTime() - sweptAt >= rescanMs || now.getTime() < sweptAt) {
        sweptAt = now.getTime();
        targets.add('');
        for await (const [, row] of ctx.runner.rowsOf('stats').entries('project:')) targets.add((row as ProjectStats).project);
      }
      const events: Envelope[] = [];
      for (const project of [...targets].sort()) {
        const skills = readOwnSkills({ claude: ctx.paths.claude, userManifests: options.userManifests }, project);
        const before = ((await rows.get(skillsKeyOf(project))) as SkillsRow | undefined)?.skills;
        if (before !== undefined && fingerprint(before) === fingerprint(skills)) continue;
        if (before === undefined && skills.length === 0) continue;
        events.push({
          // What was there and what is now: the same reading recorded twice is stored once.
          id: `skills-read:${contentHash(`${project}\n${before === undefined ? '' : fingerprint(before)}\n${fingerprint(skills)}`)}`,
          type: SkillsScanned.type,
          schemaVersion: SkillsScanned.schemaVersion,
          ts: now.toISOString(),
          session: '',
          project,
          data: { skills },
        });
      }
      return events;
    },
  };
}

function fingerprint(skills: readonly OwnSkill[]): string {
  return contentHash(JSON.stringify([...skills].sort((a, b) => (a.name < b.name ? -1 : 1)).map((s) => [s.name, s.scope, s.hash, s.description, s.captured, s.pinned])));
}
