import type { DomainEvent } from '../events/catalog.js';

export interface ToolCount {
  readonly calls: number;
  readonly errors: number;
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

/** One project's activity. Immutable: each event makes a new one, sharing what it did not touch. */
export interface ProjectStats {
  readonly project: string;
  readonly sessions: number;
  readonly prompts: number;
  readonly toolCalls: number;
  readonly toolErrors: number;
  readonly compactions: number;
  readonly tools: Readonly<Record<string, ToolCount>>;
  /** Bash calls by their program (first word). */
  readonly commands: Readonly<Record<string, number>>;
  readonly skillsUsed: Readonly<Record<string, number>>;
  readonly skillsInstalled: readonly InstalledSkill[];
  readonly recentFailures: readonly Failure[];
  readonly firstAt: string;
  readonly lastAt: string;
}

/** How many failures a project's error file lists. */
const RECENT_FAILURES = 5;

export function emptyProjectStats(project: string, at: string): ProjectStats {
  return {
    project, sessions: 0, prompts: 0, toolCalls: 0, toolErrors: 0, compactions: 0, tools: {},
    commands: {}, skillsUsed: {}, skillsInstalled: [], recentFailures: [], firstAt: at, lastAt: at,
  };
}

/** `newSession`: this event is the first the log holds of its session. */
export function nextProjectStats(stats: ProjectStats, event: DomainEvent, newSession: boolean): ProjectStats {
  // What is installed is not activity: it moves neither the dates nor the counts.
  if (event.type === 'SkillsInventoried') return { ...stats, skillsInstalled: event.data.skills };
  const base: ProjectStats = {
    ...stats,
    sessions: stats.sessions + (newSession ? 1 : 0),
    lastAt: event.ts > stats.lastAt ? event.ts : stats.lastAt,
  };
  switch (event.type) {
    case 'PromptSubmitted':
      return { ...base, prompts: stats.prompts + 1 };
    case 'CompactionStarted':
      return { ...base, compactions: stats.compactions + 1 };
    case 'ToolCalled': {
      const { tool, input, ok } = event.data;
      const counted = countTool(base, tool, !ok, { at: event.ts, tool, input, error: ok ? '' : 'reported an error' });
      if (tool === 'Bash') return { ...counted, commands: bump(stats.commands, program(input)) };
      if (tool === 'Skill' && input) return { ...counted, skillsUsed: bump(stats.skillsUsed, input) };
      return counted;
    }
    case 'ToolFailed': {
      const { tool, input, error } = event.data;
      return countTool(base, tool, true, { at: event.ts, tool, input, error });
    }
    default:
      return base;
  }
}

function countTool(stats: ProjectStats, tool: string, failed: boolean, failure: Failure): ProjectStats {
  const before = own(stats.tools, tool) ?? { calls: 0, errors: 0 };
  return {
    ...stats,
    toolCalls: stats.toolCalls + 1,
    toolErrors: stats.toolErrors + (failed ? 1 : 0),
    tools: { ...stats.tools, [tool]: { calls: before.calls + 1, errors: before.errors + (failed ? 1 : 0) } },
    recentFailures: failed ? [failure, ...stats.recentFailures].slice(0, RECENT_FAILURES) : stats.recentFailures,
  };
}

function bump(counts: Readonly<Record<string, number>>, key: string): Readonly<Record<string, number>> {
  return { ...counts, [key]: (own(counts, key) ?? 0) + 1 };
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

// Tool and skill names come from outside: `constructor` or `__proto__` must count like any other.
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
