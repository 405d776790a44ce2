import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import { contentHash } from '../content-hash.js';
import type { Envelope } from '../events/envelope.js';
import { SkillArchived, SkillsCurated } from '../events/skill-events.js';
import type { EngramPaths } from '../paths.js';
import { CAPTURED, CURATED, type CuratorFinding, type SkillsRow } from '../projections/skills/skill-rows.js';
import { curateSkills, type CuratedSkill, type CuratorRows, type CuratorThresholds } from '../skills/curate-skills.js';
import { skillsRoot } from '../skills/read-own-skills.js';
import type { CommittedRows } from '../engine/projection-runner.js';
import type { Reactor } from '../engine/reactor.js';

export interface CuratorOptions extends CuratorThresholds {
  /** How long between two runs of the curator. Default 7 days (`ENGRAM_CURATOR_EVERY_DAYS`). */
  everyMs?: number;
  /** Move archivable skills to `_archive/` beside them. Default false: it only reports (`ENGRAM_CURATOR_ARCHIVE=1`). */
  archive?: boolean;
}

/**
 * The curator as a reactor (DESIGN.md "Skills"): at most once per `everyMs` of the injected
 * clock, it ages the captured skills and records what it found (SkillsCurated, shown in the
 * SessionStart footer); with `archive` on it moves each archivable skill's directory to
 * `_archive/<name>` beside it and records that (SkillArchived). Nothing is ever deleted, and a
 * pinned, hand-written or vendored skill is never looked at. Nothing runs without a captured skill.
 */
export function skillCuratorReactor(options: CuratorOptions = {}): Reactor {
  const everyMs = options.everyMs ?? 7 * 24 * 3600_000;
  return {
    name: 'skill-curator',
    reads: ['skill-suggestions'],
    async react(ctx): Promise<Envelope[]> {
      const rows = ctx.runner.rowsOf('skill-suggestions');
      const last = (await rows.get(CURATED)) as { at: string } | undefined;
      if (last && ctx.clock.now().getTime() - Date.parse(last.at) < everyMs) return [];
      return (await curate(rows, ctx.paths, ctx.clock, options)).events;
    },
  };
}

/** Reads the projection's committed rows as the curator needs them. */
export function curatorRows(rows: CommittedRows): CuratorRows {
  return {
    async *skillRows() {
      for await (const [, row] of rows.entries('skills:')) yield row as SkillsRow;
    },
    lastUse: async (key) => ((await rows.get(key)) as { at: string } | undefined)?.at,
  };
}

/**
 * One run of the curator at the clock's time: the events to record (none when no captured skill
 * is known and none was reported before) and what it found. With `archive`, archivable skills
 * are moved first; one whose directory is already gone (a run done twice) is reported, not moved.
 */
export async function curate(rows: CommittedRows, paths: Pick<EngramPaths, 'claude'>, clock: Clock, options: CuratorOptions = {}): Promise<{ events: Envelope[]; found: CuratedSkill[] }> {
  const reader = curatorRows(rows);
  // One row says whether there is anything to age: a home without captured skills costs a read a round.
  const captured = ((await rows.get(CAPTURED)) as { count: number } | undefined)?.count ?? 0;
  if (captured === 0 && (await rows.get(CURATED)) === undefined) return { events: [], found: [] };
  const now = clock.now();
  const at = now.toISOString();
  const found = await curateSkills(reader, now, options);
  const events: Envelope[] = [];
  const findings: CuratorFinding[] = [];
  for (const item of found) {
    if (options.archive && item.finding.verdict === 'archivable') {
      const moved = archiveSkill(paths, item);
      if (moved) {
        events.push({
          id: `skill-archived:${contentHash(`${moved.from}\n${item.skill.hash}`)}`,
          type: SkillArchived.type,
          schemaVersion: SkillArchived.schemaVersion,
          ts: at,
          session: '',
          project: item.project,
          data: { name: item.skill.name, scope: item.skill.scope, ...moved },
        });
        findings.push({ ...item.finding, verdict: 'archived' });
        continue;
      }
    }
    findings.push(item.finding);
  }
  events.push({ id: `skills-curated:${at}`, type: SkillsCurated.type, schemaVersion: SkillsCurated.schemaVersion, ts: at, session: '', project: '', data: { at, findings } });
  return { events, found };
}

/** Moves a skill's directory to `_archive/<name>` beside it (`<name>-2`… when taken); undefined when it is not there. */
function archiveSkill(paths: Pick<EngramPaths, 'claude'>, item: CuratedSkill): { from: string; to: string } | undefined {
  const root = skillsRoot(paths, item.project);
  const from = join(root, item.skill.name);
  if (!existsSync(join(from, 'SKILL.md'))) return undefined;
  const archive = join(root, '_archive');
  mkdirSync(archive, { recursive: true });
  for (let n = 1; ; n++) {
    const to = join(archive, n === 1 ? item.skill.name : `${item.skill.name}-${n}`);
    if (existsSync(to)) continue;
    renameSync(from, to);
    return { from, to };
  }
}
