import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fixedClock } from '../src/clock.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import type { Envelope } from '../src/events/envelope.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { allProjections } from '../src/projections/all-projections.js';
import { ProjectionRunner } from '../src/engine/projection-runner.js';
import { StateStore } from '../src/engine/state-store.js';
import { syntheticEvents } from './synthetic-events.js';
import { seededRandom } from './seeded-random.js';

export interface FlatCostResult {
  /** Events of history. */
  size: number;
  /** Median time to append one new event and bring every projection up to it. */
  medianMs: number;
}

export interface RebuildResult {
  events: number;
  rebuildMs: number;
  decodeMs: number;
  peakRssMb: number;
}

const DAY = 86_400_000;

/**
 * Histories of the given sizes, written in chunks of 1,000 sessions (100 events each) that
 * follow one another in time, so that no chunk's ids or times overlap another's.
 */
export async function buildHistory(dir: string, size: number): Promise<void> {
  const log = await LevelEventLog.open(join(dir, 'log'));
  const sessions = size / 100;
  for (let done = 0, chunk = 0; done < sessions; chunk++) {
    const count = Math.min(1000, sessions - done);
    const start = new Date(Date.parse('2025-01-01T08:00:00.000Z') + chunk * 20 * DAY).toISOString();
    const events = syntheticEvents({ sessions: count, eventsPerSession: 100, projects: 8, seed: 100 + chunk, start });
    for (let i = 0; i < events.length; i += 5000) await log.append(events.slice(i, i + 5000));
    done += count;
  }
  await log.close();
}

/**
 * The cost of keeping up: for each history size, the median time to append one more event of a
 * live session and bring every projection up to it. The sizes are measured round-robin, one
 * event each in turn, so that a busy moment of the machine falls on all of them alike.
 */
export async function flatCostBench(scratch: string, sizes: readonly number[], rounds: number): Promise<FlatCostResult[]> {
  const opened: Array<{ size: number; log: LevelEventLog; store: StateStore; runner: ProjectionRunner; times: number[] }> = [];
  for (const size of sizes) {
    const dir = join(scratch, `history-${size}`);
    await buildHistory(dir, size);
    const log = await LevelEventLog.open(join(dir, 'log'));
    const store = await StateStore.open(join(dir, 'state'), { now: () => new Date() });
    const runner = new ProjectionRunner({
      log,
      catalog: defaultCatalog(),
      store,
      projections: allProjections({ views: join(dir, 'views'), claude: join(dir, 'claude') }),
      clock: fixedClock(new Date()),
    });
    await runner.start();
    await runner.catchUp();
    opened.push({ size, log, store, runner, times: [] });
  }
  // One more session, after every history, its events fed one at a time.
  const live = syntheticEvents({ sessions: 1, eventsPerSession: rounds + 10, projects: 8, seed: 999, start: '2030-01-01T08:00:00.000Z' });
  for (let round = 0; round < rounds; round++) {
    for (const h of opened) {
      const event: Envelope = live[round]!;
      const t = performance.now();
      await h.log.append([event]);
      await h.runner.catchUp();
      // The first rounds warm the row caches and the JIT; they are not counted.
      if (round >= 10) h.times.push(performance.now() - t);
    }
  }
  const results = opened.map((h) => ({ size: h.size, medianMs: median(h.times) }));
  for (const h of opened) {
    await h.store.close();
    await h.log.close();
  }
  return results;
}

/**
 * A full rebuild of the history in `dir` in a process of its own, so its peak resident memory is
 * the rebuild's: against iterating and decoding the same log in that process.
 */
export function rebuildInChild(dir: string): RebuildResult {
  const child = spawnSync(process.execPath, [join(import.meta.dirname, 'rebuild-child.js'), dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`the rebuild child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as RebuildResult;
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

export interface ProposalCostResult {
  /** Memories already in the directory. */
  memories: number;
  /** Median time to append one new memory proposal and bring the projections up to it. */
  medianMs: number;
  /** Median CPU time of the process over the same (every thread: LevelDB's too), steadier than wall time on a loaded machine. */
  medianCpuMs: number;
}

const PROJECT = '/home/dev/src/crowded';

/**
 * A directory of `count` memories, each proposed by the agent with a name and description of
 * words drawn from a seeded vocabulary (so tokens are shared the way a real directory's are,
 * and few pairs are near-duplicates), as events from `seq` on.
 */
export function proposalEvents(count: number, seed: number, start: string, idPrefix: string): Envelope[] {
  const random = seededRandom(seed);
  const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x`);
  // Zipf-like: low indices far more often, as in prose.
  const word = () => words[Math.floor(words.length * random() ** 3)]!;
  const phrase = (n: number) => Array.from({ length: n }, word).join(' ');
  let clock = Date.parse(start);
  return Array.from({ length: count }, (_, i) => {
    clock += 1000;
    return {
      id: `${(clock * 1000).toString(36).padStart(11, '0')}-1-${idPrefix}${i.toString(36).padStart(8, '0')}`,
      type: 'MemoryProposed',
      schemaVersion: 1,
      ts: new Date(clock).toISOString(),
      session: '00000000-0000-4000-8000-000000000001',
      project: PROJECT,
      data: {
        memoryId: `${idPrefix}-${i}`, origin: 'agent', scope: 'project', name: phrase(4), description: phrase(10),
        type: 'project', body: `${phrase(30)}\n`, status: 'active', confidence: 0.5,
      },
    };
  });
}

/**
 * The cost of one memory proposal in a directory that already holds each of `sizes` memories:
 * the median time to append it and bring the projections (`names`; all by default) up to it,
 * measured round-robin across the sizes like flatCostBench.
 */
export async function proposalCostBench(scratch: string, sizes: readonly number[], rounds: number, names?: readonly string[]): Promise<ProposalCostResult[]> {
  const opened: Array<{ size: number; log: LevelEventLog; store: StateStore; runner: ProjectionRunner; times: number[]; cpu: number[] }> = [];
  for (const size of sizes) {
    const dir = join(scratch, `proposals-${size}`);
    const log = await LevelEventLog.open(join(dir, 'log'));
    const history = proposalEvents(size, 7, '2026-01-01T08:00:00.000Z', 'h');
    for (let i = 0; i < history.length; i += 5000) await log.append(history.slice(i, i + 5000));
    const store = await StateStore.open(join(dir, 'state'), { now: () => new Date() });
    const projections = allProjections({ views: join(dir, 'views'), claude: join(dir, 'claude') })
      .filter((projection) => !names || names.includes(projection.projector.name));
    const runner = new ProjectionRunner({ log, catalog: defaultCatalog(), store, projections, clock: fixedClock(new Date()) });
    await runner.start();
    await runner.catchUp();
    opened.push({ size, log, store, runner, times: [], cpu: [] });
  }
  const live = proposalEvents(rounds, 99, '2027-01-01T08:00:00.000Z', 'n');
  for (let round = 0; round < rounds; round++) {
    // Each round starts at another size, so that whatever one measurement leaves behind (a
    // collection, a compaction) falls on each size alike rather than always on the next one.
    for (let i = 0; i < opened.length; i++) {
      const h = opened[(round + i) % opened.length]!;
      const cpu = process.cpuUsage();
      const t = performance.now();
      await h.log.append([live[round]!]);
      await h.runner.catchUp();
      const used = process.cpuUsage(cpu);
      if (round >= 10) {
        h.times.push(performance.now() - t);
        h.cpu.push((used.user + used.system) / 1000);
      }
    }
  }
  const results = opened.map((h) => ({ memories: h.size, medianMs: median(h.times), medianCpuMs: median(h.cpu) }));
  for (const h of opened) {
    await h.store.close();
    await h.log.close();
  }
  return results;
}
