import { projectMemoryDir } from '../paths.js';
import { defineProjector } from './projector.js';
import type { FileOp } from './file-ops.js';
import { rowChange, type RowChange } from './row-change.js';
import { applyToProjectStats, emptyProjectStats, type ProjectStats } from './project-stats.js';
import { renderErrors, renderStats, renderToolUsage, statsFiles } from './stats-render.js';

export interface StatsState {
  projects: Map<string, ProjectStats>;
  /** Sessions already counted, so a resumed session is not a new one. */
  sessionsSeen: Set<string>;
}

/**
 * One row per project: its activity, shown as auto-stats.md, auto-tool-usage.md and
 * auto-errors.md in its memory directory, re-rendered whole whenever the row changes.
 */
export const statsProjector = defineProjector<StatsState, RowChange<ProjectStats>>({
  name: 'stats',
  projectorVersion: 1,
  handles: ['SessionStarted', 'PromptSubmitted', 'ToolCalled', 'ToolFailed', 'CompactionStarted', 'SkillsInventoried'],
  initialState: () => ({ projects: new Map(), sessionsSeen: new Set() }),
  evolve(state, event) {
    if (event.project === '') return { state, changes: [] };
    // A project known only from an inventory has no activity to report yet.
    if (event.type === 'SkillsInventoried' && !state.projects.has(event.project)) return { state, changes: [] };
    const newSession = event.session !== '' && !state.sessionsSeen.has(event.session);
    if (newSession) state.sessionsSeen.add(event.session);
    let stats = state.projects.get(event.project);
    if (!stats) state.projects.set(event.project, (stats = emptyProjectStats(event.project, event.ts)));
    applyToProjectStats(stats, event, newSession);
    return { state, changes: [rowChange(event.project, stats)] };
  },
});

/** The three stats files in the project's memory directory, each linked from its MEMORY.md. */
export function materializeStats(project: string, stats: ProjectStats): FileOp[] {
  const dir = projectMemoryDir(project);
  return [
    { kind: 'write', path: `${dir}/${statsFiles.stats.file}`, content: renderStats(stats) },
    { kind: 'write', path: `${dir}/${statsFiles.toolUsage.file}`, content: renderToolUsage(stats) },
    { kind: 'write', path: `${dir}/${statsFiles.errors.file}`, content: renderErrors(stats) },
    { kind: 'index', dir, entries: [statsFiles.stats, statsFiles.toolUsage, statsFiles.errors] },
  ];
}
