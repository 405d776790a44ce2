import type { Envelope } from '../src/events/envelope.js';
import { seededRandom as mulberry32 } from './seeded-random.js';

export interface SyntheticOptions {
  sessions: number;
  /** Events per session, about. Default 100. */
  eventsPerSession?: number;
  /** Default 5. */
  projects?: number;
  /** Default 1. */
  seed?: number;
  /** Time of the first event. Default 2026-10-01. */
  start?: string;
}

const TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'Glob', 'Write', 'Task', 'WebFetch', 'Skill', 'TodoWrite'];
const COMMANDS = ['npm test', 'git status', 'git diff --stat', 'npx tsc --noEmit', 'ls -la src', 'pnpm lint', 'make build', 'cargo test'];

/**
 * Deterministic, realistic-shaped sessions for tests and benchmarks: the same options give the
 * same events, ids included, on every machine.
 */
export function syntheticEvents(options: SyntheticOptions): Envelope[] {
  const random = mulberry32(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const perSession = options.eventsPerSession ?? 100;
  const projects = Array.from({ length: options.projects ?? 5 }, (_, i) => `/home/dev/src/project-${i}`);
  let clock = Date.parse(options.start ?? '2026-10-01T08:00:00.000Z');
  let n = 0;
  const events: Envelope[] = [];
  const push = (session: string, project: string, type: string, schemaVersion: number, data: unknown) => {
    clock += 1000 + Math.floor(random() * 20_000);
    // Ids in engram's own format (time prefix, pid, random tail), the tail here a counter.
    const id = `${(clock * 1000).toString(36).padStart(11, '0')}-1-${(++n).toString(36).padStart(10, '0')}`;
    events.push({ id, type, schemaVersion, ts: new Date(clock).toISOString(), session, project, data });
  };
  for (let s = 0; s < options.sessions; s++) {
    const session = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const project = pick(projects);
    push(session, project, 'SessionStarted', 1, { source: 'startup', transcriptPath: `/home/dev/.claude/projects/x/${session}.jsonl` });
    let left = perSession - 2;
    while (left > 0) {
      push(session, project, 'PromptSubmitted', 2, { prompt: `please look at ${pick(TOOLS)} handling in module ${s % 17}`, chars: 40, truncated: false });
      left--;
      const calls = Math.min(left, 1 + Math.floor(random() * 8));
      for (let c = 0; c < calls; c++) {
        const tool = pick(TOOLS);
        const input = tool === 'Bash' ? pick(COMMANDS) : tool === 'Skill' ? pick(['release-notes', 'db-migration']) : `src/module-${c % 9}.ts`;
        if (random() < 0.07) push(session, project, 'ToolFailed', 1, { tool, input, error: 'Exit code 1\nnpm ERR! test failed' });
        else push(session, project, 'ToolCalled', 1, { tool, input, ok: random() > 0.02 });
      }
      left -= calls;
      if (left > 0 && random() < 0.5) {
        push(session, project, 'TurnStopped', 1, { stopHookActive: false, answerChars: Math.floor(random() * 4000) });
        left--;
      }
      if (left > 0 && random() < 0.02) {
        push(session, project, 'CompactionStarted', 1, { trigger: 'auto' });
        left--;
      }
    }
    if (random() < 0.9) push(session, project, 'SessionEnded', 1, { reason: pick(['prompt_input_exit', 'clear', 'logout', 'other']) });
  }
  return events;
}

