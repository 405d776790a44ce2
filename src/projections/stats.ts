import { projectSlug } from '../paths.js';
import { defineProjector } from './projector.js';
import { fileChange, indexChange, type FileSinkChange } from './file-changes.js';
import { emptyProjectStats, nextProjectStats, type ProjectStats } from './project-stats.js';
import { renderErrors, renderStats, renderToolUsage, statsFiles } from './stats-render.js';

export interface StatsState {
  projects: Map<string, ProjectStats>;
  /** Sessions already counted, so a resumed session is not a new one. */
  sessionsSeen: Set<string>;
}

/**
 * auto-stats.md, auto-tool-usage.md and auto-errors.md in each project's memory directory,
 * re-rendered whole from the project's stats on every change and linked from its MEMORY.md.
 */
export const statsProjector = defineProjector<StatsState, FileSinkChange>({
  name: 'stats',
  projectorVersion: 1,
  handles: ['SessionStarted', 'PromptSubmitted', 'ToolCalled', 'ToolFailed', 'CompactionStarted', 'SkillsInventoried'],
  initialState: () => ({ projects: new Map(), sessionsSeen: new Set() }),
  evolve(state, event) {
    if (event.project === '') return { state, changes: [] };
    const newSession = event.session !== '' && !state.sessionsSeen.has(event.session);
    if (newSession) state.sessionsSeen.add(event.session);
    const before = state.projects.get(event.project) ?? emptyProjectStats(event.project, event.ts);
    const stats = nextProjectStats(before, event, newSession);
    state.projects.set(event.project, stats);
    const dir = memoryDirUnderClaude(event.project);
    return {
      state,
      changes: [
        fileChange('claude', `${dir}/${statsFiles.stats.file}`, () => renderStats(stats)),
        fileChange('claude', `${dir}/${statsFiles.toolUsage.file}`, () => renderToolUsage(stats)),
        fileChange('claude', `${dir}/${statsFiles.errors.file}`, () => renderErrors(stats)),
        indexChange(dir, [statsFiles.stats, statsFiles.toolUsage, statsFiles.errors]),
      ],
    };
  },
});

/** `projects/<slug>/memory`, relative to the claude root. */
export function memoryDirUnderClaude(project: string): string {
  return `projects/${projectSlug(project)}/memory`;
}
