import type { DomainEvent } from '../events/catalog.js';

export interface ToolCount {
  calls: number;
  errors: number;
}

export interface Failure {
  readonly at: string;
  readonly tool: string;
  readonly input: string;
  readonly error: string;
}

export interface InstalledSkill {
  readonly name: string;
  readonly scope: 'user' | 'project';
}

/**
 * One project's activity: a row of the stats projection, updated in place by every event of
 * the project (each of which also emits the row's change, which is what makes in-place safe).
 */
export interface ProjectStats {
  readonly project: string;
  sessions: number;
  prompts: number;
  toolCalls: number;
  toolErrors: number;
  compactions: number;
  /** Maps, not objects: tool and skill names come from outside, `__proto__` included. */
  readonly tools: Map<string, ToolCount>;
  /** Bash calls by their program (first word). */
  readonly commands: Map<string, number>;
  readonly skillsUsed: Map<string, number>;
  skillsInstalled: readonly InstalledSkill[];
  /** Latest first. */
  readonly recentFailures: Failure[];
  readonly firstAt: string;
  lastAt: string;
}

/** How many failures a project's error file lists. */
const RECENT_FAILURES = 5;

export function emptyProjectStats(project: string, at: string): ProjectStats {
  return {
    project, sessions: 0, prompts: 0, toolCalls: 0, toolErrors: 0, compactions: 0, tools: new Map(),
    commands: new Map(), skillsUsed: new Map(), skillsInstalled: [], recentFailures: [], firstAt: at, lastAt: at,
  };
}

/** `newSession`: this event is the first the log holds of its session. */
export function applyToProjectStats(stats: ProjectStats, event: DomainEvent, newSession: boolean): void {
  // What is installed is not activity: it moves neither the dates nor the counts.
  if (event.type === 'SkillsInventoried') {
    stats.skillsInstalled = event.data.skills;
    return;
  }
  if (newSession) stats.sessions++;
  if (event.ts > stats.lastAt) stats.lastAt = event.ts;
  switch (event.type) {
    case 'PromptSubmitted':
      stats.prompts++;
      break;
    case 'CompactionStarted':
      stats.compactions++;
      break;
    case 'ToolCalled': {
      const { tool, input, ok } = event.data;
      countTool(stats, tool, !ok, { at: event.ts, tool, input, error: ok ? '' : 'reported an error' });
      if (tool === 'Bash') bump(stats.commands, program(input));
      else if (tool === 'Skill' && input) bump(stats.skillsUsed, input);
      break;
    }
    case 'ToolFailed': {
      const { tool, input, error } = event.data;
      countTool(stats, tool, true, { at: event.ts, tool, input, error });
      break;
    }
    default:
      break;
  }
}

function countTool(stats: ProjectStats, tool: string, failed: boolean, failure: Failure): void {
  let count = stats.tools.get(tool);
  if (!count) stats.tools.set(tool, (count = { calls: 0, errors: 0 }));
  count.calls++;
  stats.toolCalls++;
  if (!failed) return;
  count.errors++;
  stats.toolErrors++;
  stats.recentFailures.unshift(failure);
  if (stats.recentFailures.length > RECENT_FAILURES) stats.recentFailures.pop();
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

// Set-up steps are not what a command runs.
const PREAMBLE = new Set(['cd', 'pushd', 'set', 'export', 'source', '.']);

// `FOO=1 npm test`, `sudo make` and `cd web && pnpm build` count as npm, make and pnpm.
function program(command: string): string {
  const steps = command.split(/&&|\|\||;/).map((step) => step.trim()).filter(Boolean);
  for (const step of steps) {
    const words = step.split(/\s+/);
    let i = 0;
    while (i < words.length - 1 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!) || ['sudo', 'env', 'time', 'nohup'].includes(words[i]!))) i++;
    const word = (words[i] ?? '').split('/').pop()!.slice(0, 40);
    if (word && !PREAMBLE.has(word)) return word;
  }
  return '(none)';
}
