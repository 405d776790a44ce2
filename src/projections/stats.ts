import { projectMemoryDir } from '../paths.js';
import { defineProjector, type Projector } from './projector.js';
import type { FileOp } from './file-ops.js';
import { rowChange, type RowChange } from './row-change.js';
import { emptyProjectStats, nextProjectStats, type ProjectStats } from './project-stats.js';
import { sessionEventTypes } from './session-record.js';
import { renderErrors, renderStats, renderToolUsage, statsFiles } from './stats-render.js';
import { keyCache } from './key-cache.js';

const PROJECT = 'project:';
/** A session already counted, so a resumed session is not a new one. */
const SEEN = 'seen:';

type StatsRow = ProjectStats | true;

/**
 * One row per project: its activity, shown as auto-stats.md, auto-tool-usage.md and
 * auto-errors.md in its memory directory, re-rendered whole whenever the row changes. A session
 * counts from the first event of it the log holds, whichever hook sent it.
 */
export function statsProjector(): Projector<StatsRow> {
  // This lane's own keys (key-cache.ts): made with the projection, gone with it.
  const projectKeyOf = keyCache(PROJECT);
  const seenKeyOf = keyCache(SEEN);
  return defineProjector<StatsRow>({
    name: 'stats',
    // 4: first seen is the earliest event, recent failures sorted by time: the same files whatever the fold order.
    projectorVersion: 4,
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
      return changes;
    },
  });
}

/** The three stats files in the project's memory directory, each linked from its MEMORY.md. */
export function materializeStats(key: string, row: StatsRow): FileOp[] {
  if (!key.startsWith(PROJECT)) return [];
  const stats = row as ProjectStats;
  const dir = projectMemoryDir(stats.project);
  return [
    { kind: 'write', path: `${dir}/${statsFiles.stats.file}`, content: renderStats(stats) },
    { kind: 'write', path: `${dir}/${statsFiles.toolUsage.file}`, content: renderToolUsage(stats) },
    { kind: 'write', path: `${dir}/${statsFiles.errors.file}`, content: renderErrors(stats) },
    { kind: 'index', dir, entries: [statsFiles.stats, statsFiles.toolUsage, statsFiles.errors] },
  ];
}
