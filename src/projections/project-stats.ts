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

/**
 * One project's activity: a row of the stats projection. Never changed once made: each event
 * makes a new row. Its counts by tool, program and skill are rows of their own (stats.ts), so
 * that an event copies none of them: copying those maps at every tool call was a fifth of a
 * rebuild's garbage.
 */
export interface ProjectStats {
  readonly project: string;
  readonly sessions: number;
  readonly prompts: number;
  readonly toolCalls: number;
  readonly toolErrors: number;
  readonly compactions: number;
  readonly skillsInstalled: readonly InstalledSkill[];
  /** Latest first. */
  readonly recentFailures: readonly Failure[];
  readonly firstAt: string;
  readonly lastAt: string;
}

/**
 * A project's activity as its files show it: the row with its counts by tool, program (Bash
 * calls by their first word) and skill gathered from their rows. Maps, not objects: tool and
 * skill names come from outside, `__proto__` included.
 */
export interface ProjectActivity extends ProjectStats {
  readonly tools: ReadonlyMap<string, ToolCount>;
  readonly commands: ReadonlyMap<string, number>;
  readonly skillsUsed: ReadonlyMap<string, number>;
}

/** How many failures a project's error file lists. */
const RECENT_FAILURES = 5;

export function emptyProjectStats(project: string, at: string): ProjectStats {
  return {
    project, sessions: 0, prompts: 0, toolCalls: 0, toolErrors: 0, compactions: 0,
    skillsInstalled: [], recentFailures: [], firstAt: at, lastAt: at,
  };
}

/**
 * The row after one more event of its project. `newSession`: the first event seen of its
 * session. The counts by name are the projector's (stats.ts).
 */
export function nextProjectStats(stats: ProjectStats, event: DomainEvent, newSession: boolean): ProjectStats {
  // What is installed is not activity: it moves neither the dates nor the counts.
  if (event.type === 'SkillsInventoried') return { ...stats, skillsInstalled: event.data.skills };
  // One new row per event, built once: this runs for every event of a rebuild.
  let { prompts, compactions, toolCalls, toolErrors, recentFailures } = stats;
  switch (event.type) {
    case 'PromptSubmitted':
      prompts++;
      break;
    case 'CompactionStarted':
      compactions++;
      break;
    case 'ToolCalled': {
      const { tool, input, ok } = event.data;
      toolCalls++;
      if (!ok) {
        toolErrors++;
        recentFailures = withFailure(recentFailures, { at: event.ts, tool, input, error: 'reported an error' });
      }
      break;
    }
    case 'ToolFailed': {
      const { tool, input, error } = event.data;
      toolCalls++;
      toolErrors++;
      recentFailures = withFailure(recentFailures, { at: event.ts, tool, input, error });
      break;
    }
    default:
      break;
  }
  return {
    project: stats.project,
    sessions: stats.sessions + (newSession ? 1 : 0),
    prompts,
    toolCalls,
    toolErrors,
    compactions,
    skillsInstalled: stats.skillsInstalled,
    recentFailures,
    // The earliest and latest events, not the first and last folded: two machines fold them in their own order.
    firstAt: event.ts < stats.firstAt ? event.ts : stats.firstAt,
    lastAt: event.ts > stats.lastAt ? event.ts : stats.lastAt,
  };
}

// Latest first by time, then by what failed: the same list whatever order the log holds them in.
function withFailure(failures: readonly Failure[], failure: Failure): readonly Failure[] {
  return [failure, ...failures].sort(latestFirst).slice(0, RECENT_FAILURES);
}

function latestFirst(a: Failure, b: Failure): number {
  return compare(b.at, a.at) || compare(a.tool, b.tool) || compare(a.input, b.input) || compare(a.error, b.error);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// Set-up steps are not what a command runs.
const PREAMBLE = new Set(['cd', 'pushd', 'popd', 'set', 'export', 'source', '.', 'true', ':']);
// Words that run the command after them: `sudo make` counts as make.
const PREFIXES = new Set(['sudo', 'env', 'time', 'nohup', 'exec', 'command', 'builtin', 'nice', '!', '{', '(']);
// Shell syntax that opens or closes a compound command; what follows `do`/`then`/`if` is a command.
const LEADING_KEYWORDS = new Set(['do', 'then', 'else', 'elif', 'if', 'while', 'until']);
// Steps that are syntax or a test, not a program: `for f in *.ts`, `done`, `fi`, `[ -f x ]`.
const SYNTAX_STEPS = new Set(['for', 'select', 'case', 'done', 'fi', 'esac', '}', ')', 'function', 'in', '[', '[[']);

/**
 * The program a shell command runs: `FOO=1 npm test`, `sudo make` and `cd web && pnpm build`
 * count as npm, make and pnpm; `for f in *.ts; do npx tsc $f; done` counts as npx, not `for`.
 */
export function program(command: string): string {
  const steps = command.split(/&&|\|\||;|\|/).map((step) => step.trim()).filter(Boolean);
  for (const step of steps) {
    const words = step.split(/\s+/);
    let i = 0;
    while (i < words.length && (LEADING_KEYWORDS.has(words[i]!) || PREFIXES.has(words[i]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i++;
    const first = words[i];
    if (first === undefined || SYNTAX_STEPS.has(first)) continue;
    const word = first.split('/').pop()!.slice(0, 40);
    if (word && !PREAMBLE.has(word)) return word;
  }
  return '(none)';
}
