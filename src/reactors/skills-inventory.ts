import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SkillsInventoried } from '../events/engram-events.js';
import type { Envelope } from '../events/envelope.js';
import type { InstalledSkill, ProjectStats } from '../projections/project-stats.js';
import type { Reactor, ReactorContext } from '../engine/reactor.js';

export interface SkillsInventoryOptions {
  /** A project is looked at again after this long even without a new session. Default 5 min. */
  rescanMs?: number;
}

/**
 * Which skills are installed is a fact of the file system, so it enters the log as an event
 * (DESIGN.md invariant 4): looked up for a project when a session of it starts, recorded only
 * when it differs from what the stats projection last saw.
 */
export function skillsInventoryReactor(options: SkillsInventoryOptions = {}): Reactor {
  const rescanMs = options.rescanMs ?? 5 * 60_000;
  // Reactor instance state, not projection state: forgetting it only costs a rescan.
  const scanned = new Map<string, { sessions: number; at: number }>();
  return {
    name: 'skills-inventory',
    reads: ['stats'],
    async react(ctx: ReactorContext): Promise<Envelope[]> {
      const now = ctx.clock.now();
      const events: Envelope[] = [];
      // Committed rows: what the stats files already show, never a round still in progress.
      for await (const [, row] of ctx.runner.rowsOf('stats').entries('project:')) {
        const projectStats = row as ProjectStats;
        const { project } = projectStats;
        const last = scanned.get(project);
        if (last && last.sessions === projectStats.sessions && now.getTime() - last.at < rescanMs) continue;
        scanned.set(project, { sessions: projectStats.sessions, at: now.getTime() });
        const skills = installedSkills(ctx.paths.claude, project);
        if (sameSkills(skills, projectStats.skillsInstalled)) continue;
        events.push({
          id: ctx.newId(),
          type: SkillsInventoried.type,
          schemaVersion: SkillsInventoried.schemaVersion,
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

/** Skills with a SKILL.md: `<claude>/skills/*` (user) and `<project>/.claude/skills/*`. */
export function installedSkills(claude: string, project: string): InstalledSkill[] {
  const found: InstalledSkill[] = [
    ...skillDirs(join(claude, 'skills')).map((name) => ({ name, scope: 'user' as const })),
    ...skillDirs(join(project, '.claude', 'skills')).map((name) => ({ name, scope: 'project' as const })),
  ];
  return found.sort((a, b) => (a.scope === b.scope ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.scope === 'user' ? -1 : 1));
}

function skillDirs(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((name) => {
    try {
      return statSync(join(root, name, 'SKILL.md')).isFile();
    } catch {
      return false;
    }
  });
}

function sameSkills(a: readonly InstalledSkill[], b: readonly InstalledSkill[]): boolean {
  return a.length === b.length && a.every((skill, i) => skill.name === b[i]!.name && skill.scope === b[i]!.scope);
}
