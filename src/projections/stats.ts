import { projectMemoryDir } from '../paths.js';
import { defineProjector, type Projector, type SinkContext } from './projector.js';
import type { FileOp } from './file-ops.js';
import { rowChange, type RowChange } from './row-change.js';
import { emptyProjectStats, nextProjectStats, program, type ProjectActivity, type ProjectStats, type ToolCount } from './project-stats.js';
import { sessionEventTypes } from './session-record.js';
import { renderErrors, renderStats, renderToolUsage, statsFiles } from './stats-render.js';
import { keyCache, keyPairCache } from './key-cache.js';

const PROJECT = 'project:';
/** A session already counted, so a resumed session is not a new one. */
const SEEN = 'seen:';
/**
 * A project's counts by name, each in a row of its own: `<prefix><project>\0<name>`. NUL, which no
 * path holds, ends the project: its counts are read by prefix, and a path may hold a newline.
 */
const TOOL = 'tool:';
const COMMAND = 'command:';
const SKILL = 'skill:';
const SEP = '\u0000';

type StatsRow = ProjectStats | ToolCount | number | true;

/**
 * One row per project: its activity, shown as auto-stats.md, auto-tool-usage.md and
 * auto-errors.md in its memory directory, re-rendered whole whenever the row changes. A session
 * counts from the first event of it the log holds, whichever hook sent it. Its calls by tool,
 * program and skill are one row per name beside it, so an event makes one small row for each it
 * counts instead of copying a map of them all.
 */
export function statsProjector(): Projector<StatsRow> {
  // This lane's own keys (key-cache.ts): made with the projection, gone with it.
  const projectKeyOf = keyCache(PROJECT);
  const seenKeyOf = keyCache(SEEN);
  const toolKeyOf = keyPairCache(TOOL, SEP);
  const commandKeyOf = keyPairCache(COMMAND, SEP);
  const skillKeyOf = keyPairCache(SKILL, SEP);
  return defineProjector<StatsRow>({
    name: 'stats',
    // 4: first seen is the earliest event, recent failures sorted by time: the same files whatever the fold order.
    // 5: counts by tool, program and skill in rows of their own; 6: their keys end the project with NUL.
    projectorVersion: 6,
    handles: [...sessionEventTypes.filter((type) => type !== 'HookInputRejected'), 'SkillsInventoried'],
    evolve(state, event) {
      if (event.project === '') return [];
      const projectKey = projectKeyOf(event.project);
      const stats = state.get(projectKey) as ProjectStats | undefined;
      // A project known only from an inventory has no activity to report yet.
      if (event.type === 'SkillsInventoried' && !stats) return [];
      const seenKey = seenKeyOf(event.session);
      const newSession = event.session !== '' && event.type !== 'SkillsInventoried' && state.get(seenKey) === undefined;
      const changes: RowChange<StatsRow>[] = [
        rowChange(projectKey, nextProjectStats(stats ?? emptyProjectStats(event.project, event.ts), event, newSession)),
      ];
      if (newSession) changes.push(rowChange(seenKey, true));
      if (event.type === 'ToolCalled' || event.type === 'ToolFailed') {
        const { tool, input } = event.data;
        const toolKey = toolKeyOf(event.project, tool);
        const count = state.get(toolKey) as ToolCount | undefined;
        const failed = event.type === 'ToolFailed' || !event.data.ok;
        changes.push(rowChange(toolKey, { calls: (count?.calls ?? 0) + 1, errors: (count?.errors ?? 0) + (failed ? 1 : 0) }));
        // A failure reported by its own hook (ToolFailed) counts as a tool call only, not as a program run or a skill used.
        if (event.type === 'ToolCalled') {
          const named = tool === 'Bash' ? commandKeyOf(event.project, program(input)) : tool === 'Skill' && input ? skillKeyOf(event.project, input) : undefined;
          if (named !== undefined) changes.push(rowChange(named, ((state.get(named) as number | undefined) ?? 0) + 1));
        }
      }
      return changes;
    },
  });
}

/**
 * The three stats files in the project's memory directory, each linked from its MEMORY.md; the
 * rows of counts by name have no file of their own (their project's row changes with them).
 */
export async function materializeStats(key: string, row: StatsRow, scan: SinkContext['scan']): Promise<FileOp[]> {
  if (!key.startsWith(PROJECT)) return [];
  const stats = row as ProjectStats;
  const activity: ProjectActivity = {
    ...stats,
    tools: await countsOf<ToolCount>(scan, TOOL + stats.project + SEP),
    commands: await countsOf<number>(scan, COMMAND + stats.project + SEP),
    skillsUsed: await countsOf<number>(scan, SKILL + stats.project + SEP),
  };
  const dir = projectMemoryDir(stats.project);
  return [
    { kind: 'write', path: `${dir}/${statsFiles.stats.file}`, content: renderStats(activity) },
    { kind: 'write', path: `${dir}/${statsFiles.toolUsage.file}`, content: renderToolUsage(activity) },
    { kind: 'write', path: `${dir}/${statsFiles.errors.file}`, content: renderErrors(activity) },
    { kind: 'index', dir, entries: [statsFiles.stats, statsFiles.toolUsage, statsFiles.errors] },
  ];
}

/** A project's counts of one kind, by name. */
async function countsOf<C>(scan: SinkContext['scan'], prefix: string): Promise<Map<string, C>> {
  const counts = new Map<string, C>();
  for await (const [key, count] of scan(prefix)) counts.set(key.slice(prefix.length), count as C);
  return counts;
}
