import { contentHash } from '../../content-hash.js';
import type { Envelope } from '../../events/envelope.js';
import { SkillsScanned } from '../../events/skill-events.js';
import type { ProjectStats } from '../../projections/project-stats.js';
import { captureSeenKeyOf, skillsKeyOf, type OwnSkill, type SkillsRow } from '../../projections/skills/skill-rows.js';
import { readOwnSkills } from '../../skills/read-own-skills.js';
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
 * PostToolUse event of that Write), else every `rescanMs`.
 */
export function skillFilesReactor(options: SkillFilesOptions = {}): Reactor {
  const rescanMs = options.rescanMs ?? 5 * 60_000;
  // Reactor instance state, not projection state: forgetting it only costs a read of the files.
  const scanned = new Map<string, { at: number; captureSeen: string | undefined }>();
  return {
    name: 'skill-files',
    reads: ['stats', 'skill-suggestions'],
    async react(ctx: ReactorContext): Promise<Envelope[]> {
      const now = ctx.clock.now();
      const rows = ctx.runner.rowsOf('skill-suggestions');
      const projects = [''];
      for await (const [, row] of ctx.runner.rowsOf('stats').entries('project:')) projects.push((row as ProjectStats).project);
      const seen = new Map<string, string | undefined>();
      for (const project of projects) seen.set(project, ((await rows.get(captureSeenKeyOf(project))) as { at: string } | undefined)?.at);
      // A skill written in any project may be a user skill: the user's scope follows every capture.
      const anyCapture = [...seen.values()].filter((at) => at !== undefined).sort().at(-1);
      const events: Envelope[] = [];
      for (const project of projects) {
        const captureSeen = project === '' ? anyCapture : seen.get(project);
        const last = scanned.get(project);
        if (last && last.captureSeen === captureSeen && now.getTime() - last.at < rescanMs) continue;
        scanned.set(project, { at: now.getTime(), captureSeen });
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
