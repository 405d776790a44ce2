import { request, Agent } from 'node:http';
import { join } from 'node:path';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { resolvePaths } from '../src/paths.js';
import { startViewer } from '../src/viewer/viewer-server.js';
import { openEngine } from '../src/composition/open-engine.js';
import { buildHistory } from './flat-cost-bench.js';
import { seededRandom } from './seeded-random.js';

export interface Timing {
  medianMs: number;
  p95Ms: number;
}

export interface ViewerBenchResult {
  events: number;
  memories: number;
  /** Projecting the history and the memories once, before any page (not a viewer cost). */
  projectMs: number;
  /** GET /memories (all projects, by strength, first page) over HTTP. */
  memoriesPage: Timing;
  /** GET /timeline (all projects, first page of days, latest events) over HTTP. */
  timelinePage: Timing;
  /** Reading the memory directories' rows alone (what the list reads), the floor of the memories page. */
  memoriesRows: Timing;
  /** A request refused for want of its token: the HTTP round trip alone, the floor of every page. */
  refused: Timing;
  /** Bytes of each page. */
  memoriesBytes: number;
  timelineBytes: number;
}

const WORDS = ['ledger', 'invoice', 'refund', 'webhook', 'tenant', 'cache', 'queue', 'schema', 'token', 'export', 'report', 'payout', 'tax', 'search', 'index', 'shard', 'backup', 'deploy', 'lint', 'build', 'retry', 'timeout', 'pool', 'vacuum', 'migration', 'fixture', 'snapshot', 'feature', 'flag', 'metric', 'alert', 'trace', 'span', 'budget', 'quota', 'locale', 'currency', 'cents', 'rounding', 'audit'];
const TYPES = ['user', 'feedback', 'project', 'reference', 'insight'];

/** `count` distinct memories over 10 projects, active or provisional, of assorted types and ages. */
function memoryEvents(count: number): Envelope[] {
  const random = seededRandom(42);
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const events: Envelope[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${word()} ${word()} ${word()} ${word()} rule ${i}`;
    const ts = new Date(Date.parse('2025-06-01T00:00:00.000Z') + i * 60_000).toISOString();
    events.push({
      id: `bench-memory-${String(i).padStart(8, '0')}`, type: 'MemoryProposed', schemaVersion: 1, ts, session: '', project: `/home/dev/src/project-${i % 10}`,
      data: { memoryId: `bm-${i}`, origin: 'user', scope: 'project', name, description: `${name}: ${word()} ${word()} ${word()} ${word()}`, type: TYPES[i % TYPES.length], body: `${name}.\n`, status: random() < 0.8 ? 'active' : 'provisional', confidence: 0.3 + random() * 0.7 },
    });
  }
  return events;
}

function get(agent: Agent, port: number, path: string, status = 200): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => (res.statusCode === status ? resolve(bytes) : reject(new Error(`${path}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)]!, p95Ms: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]! };
}

/**
 * The viewer's response time over HTTP, served from a real engine as the worker serves it: the
 * memories page at `memories` memories and the timeline at `events` events of history, each
 * request timed from the request to the last byte, interleaved with the floor (reading the
 * memories rows), after warm-up rounds.
 */
export async function viewerBench(dir: string, options: { events: number; memories: number; rounds: number }): Promise<ViewerBenchResult> {
  const paths = resolvePaths({ ENGRAM_HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude') });
  await buildHistory(paths.home, options.events);
  const engine = await openEngine({ paths, clock: fixedClock(new Date('2026-06-01T00:00:00.000Z')) });
  try {
    const memories = memoryEvents(options.memories);
    for (let i = 0; i < memories.length; i += 1000) await engine.log.append(memories.slice(i, i + 1000));
    const started = performance.now();
    // In rebuild's windows: projecting the setup is not what is measured.
    await engine.runner.rebuild();
    const projectMs = performance.now() - started;
    const viewer = await startViewer({ engine });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const token = new URL(viewer.url).searchParams.get('t')!;
      const samples = { memories: [] as number[], timeline: [] as number[], rows: [] as number[], refused: [] as number[] };
      let memoriesBytes = 0;
      let timelineBytes = 0;
      const warmUp = 3;
      for (let round = 0; round < options.rounds + warmUp; round++) {
        let t = performance.now();
        memoriesBytes = await get(agent, viewer.port, `/memories?t=${token}`);
        const m = performance.now() - t;
        t = performance.now();
        timelineBytes = await get(agent, viewer.port, `/timeline?t=${token}`);
        const tl = performance.now() - t;
        t = performance.now();
        let n = 0;
        for await (const [key] of engine.runner.rowsOf('memories').entries('entry:')) if (key.startsWith('entry:')) n++;
        const rows = performance.now() - t;
        t = performance.now();
        await get(agent, viewer.port, '/timeline', 403);
        const refused = performance.now() - t;
        if (n !== options.memories) throw new Error(`expected ${options.memories} memories, the rows hold ${n}`);
        if (round < warmUp) continue;
        samples.memories.push(m);
        samples.timeline.push(tl);
        samples.rows.push(rows);
        samples.refused.push(refused);
      }
      return {
        events: engine.log.head - options.memories,
        memories: options.memories,
        projectMs,
        memoriesPage: timing(samples.memories),
        timelinePage: timing(samples.timeline),
        memoriesRows: timing(samples.rows),
        refused: timing(samples.refused),
        memoriesBytes,
        timelineBytes,
      };
    } finally {
      agent.destroy();
      await viewer.close();
    }
  } finally {
    await engine.close();
  }
}

// `node dist/bench/viewer-bench.js [EVENTS] [MEMORIES]`: this bench alone (npm run bench runs it at 100,000 and 10,000).
if (process.argv[1]?.endsWith('viewer-bench.js')) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'engram-viewer-bench-'));
  try {
    const r = await viewerBench(dir, { events: Number(process.argv[2] ?? 100_000), memories: Number(process.argv[3] ?? 10_000), rounds: 30 });
    const ms = (t: Timing) => `median ${t.medianMs.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms`;
    console.log(`memories page, ${r.memories} memories: ${ms(r.memoriesPage)} (${(r.memoriesBytes / 1024).toFixed(0)} KiB); reading their directories' rows alone ${ms(r.memoriesRows)}`);
    console.log(`timeline, ${r.events} events: ${ms(r.timelinePage)} (${(r.timelineBytes / 1024).toFixed(0)} KiB); a refused request ${ms(r.refused)}`);
    console.log(`(projecting the setup once: ${(r.projectMs / 1000).toFixed(0)} s)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
