import type { Envelope } from '../../src/events/envelope.js';
import { seededRandom as mulberry32 } from '../../bench/seeded-random.js';

/**
 * Six months of one developer's use of engram, generated: sessions in three projects on most
 * days, prompts that now and then correct the agent (the same lessons come back in other words),
 * memories the distiller proposes (provisional; some corroborated later), memories the user asks
 * for (a few pinned), episodes that age fast, and later memories that contradict earlier ones.
 * Deterministic for a seed. Returns the events of each day, in order.
 */
export interface SimulatedDay {
  /** The end of the day: when the maintenance tick runs. */
  end: string;
  events: Envelope[];
  /** Contradictions made this day: the contradicting memory's id, and the name it retires. */
  contradictions: Array<{ by: string; target: string }>;
  pinned: string[];
}

const PROJECTS = ['/home/dev/src/payments-api', '/home/dev/src/web-dashboard', '/home/dev/src/infra'];
const TOOLS = ['pnpm', 'vitest', 'ruff', 'terraform', 'docker compose', 'make', 'uv', 'cargo', 'psql', 'kubectl', 'jq', 'gh'];
const TASKS = ['run the tests', 'format the code', 'apply migrations', 'build the images', 'seed the database', 'lint the sources', 'deploy to staging', 'open pull requests', 'read the logs', 'profile the api'];
const AREAS = ['billing', 'refunds', 'invoices', 'auth', 'webhooks', 'reports', 'exports', 'ledger', 'search', 'onboarding', 'settings', 'alerts', 'payouts', 'tax', 'notifications'];
const FACTS = ['uses port', 'keeps secrets in vault path', 'owns the cron job', 'pins node to', 'caches for', 'retries up to', 'times out after', 'shards by', 'writes audit rows to', 'reads config from'];
const PHRASES = [
  (tool: string, task: string) => `No, I told you to use ${tool} to ${task}`,
  (tool: string, task: string) => `from now on use ${tool} to ${task}`,
  (tool: string, task: string) => `remember that we use ${tool} to ${task}`,
  (tool: string, task: string) => `That's wrong, use ${tool} to ${task}`,
];

export function simulatedUse(options: { seed?: number; days?: number; start?: string } = {}): SimulatedDay[] {
  const random = mulberry32(options.seed ?? 42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const start = Date.parse(options.start ?? '2026-05-01T00:00:00.000Z');
  let n = 0;
  let sessions = 0;
  // Lessons a project has been taught, so they come back in other words.
  const lessons = new Map<string, Array<[string, string]>>();
  const names: Array<{ id: string; name: string; project: string }> = [];
  const out: SimulatedDay[] = [];
  for (let day = 0; day < (options.days ?? 183); day++) {
    const dayStart = start + day * 86_400_000;
    const events: Envelope[] = [];
    const contradictions: SimulatedDay['contradictions'] = [];
    const pinned: string[] = [];
    let clock = dayStart + 8 * 3_600_000;
    const push = (type: string, schemaVersion: number, session: string, project: string, data: unknown) => {
      clock += 60_000 + Math.floor(random() * 600_000);
      events.push({ id: `sim-${(++n).toString(36).padStart(8, '0')}`, type, schemaVersion, ts: new Date(clock).toISOString(), session, project, data });
      return events.at(-1)!.id;
    };
    const weekend = new Date(dayStart).getUTCDay() % 6 === 0;
    const count = weekend ? (random() < 0.3 ? 1 : 0) : 1 + Math.floor(random() * 4);
    for (let s = 0; s < count; s++) {
      const session = `sim-session-${++sessions}`;
      const project = pick(PROJECTS);
      push('SessionStarted', 1, session, project, { source: 'startup' });
      const prompts = 2 + Math.floor(random() * 5);
      for (let p = 0; p < prompts; p++) {
        let prompt = `please look at the ${pick(AREAS)} ${pick(['handler', 'tests', 'query', 'component', 'job'])}`;
        if (random() < 0.12) {
          const taught = lessons.get(project) ?? [];
          const lesson: [string, string] = taught.length > 0 && random() < 0.4 ? pick(taught) : [pick(TOOLS), pick(TASKS)];
          if (!taught.includes(lesson)) lessons.set(project, [...taught, lesson]);
          prompt = pick(PHRASES)(...lesson);
        }
        push('PromptSubmitted', 2, session, project, { prompt, chars: prompt.length, truncated: false });
        push('ToolCalled', 1, session, project, { tool: 'Bash', input: `${pick(TOOLS)} ${pick(['test', 'build', 'run'])}`, ok: random() > 0.05 });
      }
      // What a distiller might have proposed about this session: provisional until said again.
      if (random() < 0.5) {
        const area = pick(AREAS);
        const fact = `${pick(FACTS)} ${Math.floor(random() * 9000) + 100}`;
        const id = `sim-memory-${n}`;
        const status = random() < 0.3 ? 'active' : 'provisional';
        push('MemoryProposed', 1, session, project, {
          memoryId: id, origin: 'distiller', scope: 'project', name: `${area} ${fact}`.slice(0, 60), description: `the ${area} service ${fact}`,
          type: 'project', tier: random() < 0.2 ? 'episodic' : 'fact', body: `The ${area} service ${fact}, seen in \`src/${area}/index.ts\`.\n`,
          status, confidence: status === 'active' ? 0.7 : 0.3,
        });
        names.push({ id, name: `${area} ${fact}`.slice(0, 60), project });
        if (status === 'provisional' && random() < 0.4) push('MemoryCorroborated', 1, session, project, { memoryId: id, by: 'distiller' });
      }
      // What the user asks to keep; now and then pinned, now and then correcting an earlier memory.
      if (random() < 0.15) {
        const id = `sim-user-${n}`;
        const earlier = names.filter((entry) => entry.project === project);
        const target = earlier.length > 0 && random() < 0.5 ? pick(earlier) : undefined;
        const area = pick(AREAS);
        const name = `${area} decision ${n}`;
        const decision = `${pick(['store', 'validate', 'batch', 'cache', 'encrypt', 'log', 'queue', 'paginate'])} ${pick(['amounts', 'tokens', 'events', 'emails', 'ids', 'rows', 'files', 'totals'])} ${pick(['per tenant', 'in utc', 'as strings', 'before commit', 'nightly', 'with retries', 'behind a flag', 'in postgres'])}`;
        push('MemoryProposed', 1, session, project, {
          memoryId: id, origin: 'user', scope: 'project', name, description: `${area}: ${decision}`,
          type: 'project', tier: 'fact', body: `Decision ${n} about ${area}.\n`, status: 'active', confidence: 0.9,
          pinned: random() < 0.25 && !target, ...(target ? { contradicts: [target.name] } : {}),
        });
        names.push({ id, name, project });
        if (target) contradictions.push({ by: id, target: target.id });
      }
      push('SessionEnded', 1, session, project, { reason: 'prompt_input_exit' });
    }
    const end = new Date(dayStart + 86_399_000).toISOString();
    for (const event of events) {
      if (event.type === 'MemoryProposed' && (event.data as { pinned?: boolean }).pinned) pinned.push((event.data as { memoryId: string }).memoryId);
    }
    out.push({ end, events, contradictions, pinned });
  }
  return out;
}

