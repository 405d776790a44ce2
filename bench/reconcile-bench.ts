import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { readMemoryDir } from '../src/memories/read-memory-dir.js';
import { projectMemoryDir, resolvePaths } from '../src/paths.js';
import { reconcileNow } from '../src/commands/reconcile-command.js';
import { openEngine } from '../src/composition/open-engine.js';

export interface ReconcileBenchResult {
  memories: number;
  /** Median time of a reconcile round that finds nothing changed. */
  reconcileMs: number;
  /** Median time of reading and parsing the same directory alone. */
  readMs: number;
}

/**
 * What the reconciler costs on each SessionStart: a round over a project directory of `memories`
 * memory files where nothing changed, against reading that directory alone.
 */
export async function reconcileBench(memories = 300, rounds = 15): Promise<ReconcileBenchResult> {
  const root = mkdtempSync(join(tmpdir(), 'engram-bench-reconcile-'));
  const paths = resolvePaths({ ENGRAM_HOME: join(root, 'home'), CLAUDE_CONFIG_DIR: join(root, 'claude') });
  const project = '/home/dev/src/bench';
  const engine = await openEngine({ paths, clock: fixedClock(new Date('2026-11-01T00:00:00.000Z')) });
  try {
    const events: Envelope[] = Array.from({ length: memories }, (_, i) => ({
      id: `evt-bench-rec-${String(i).padStart(6, '0')}`, type: 'MemoryProposed', schemaVersion: 1, ts: '2026-11-01T00:00:00.000Z', session: '', project,
      data: { memoryId: `m${i}`, origin: 'user', scope: 'project', name: `Memory number ${i}`, description: `what memory ${i} says about topic ${i % 37}`, type: 'project', body: `Memory ${i}: ${'some words about the project '.repeat(8)}\n`, status: 'active', confidence: 0.8 },
    }));
    await engine.record(events);
    const dir = join(paths.claude, projectMemoryDir(project));
    const reconcile: number[] = [];
    const read: number[] = [];
    for (let i = 0; i < rounds + 3; i++) {
      let t = performance.now();
      await readMemoryDir(dir);
      if (i >= 3) read.push(performance.now() - t);
      t = performance.now();
      const { appended } = await reconcileNow(engine, project);
      if (appended !== 0) throw new Error('nothing changed, yet the reconciler recorded something');
      if (i >= 3) reconcile.push(performance.now() - t);
    }
    return { memories, reconcileMs: median(reconcile), readMs: median(read) };
  } finally {
    await engine.close();
    rmSync(root, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

if (process.argv[1]?.endsWith('reconcile-bench.js')) {
  const result = await reconcileBench();
  console.log(`reconcile of ${result.memories} unchanged memory files: ${result.reconcileMs.toFixed(1)} ms (reading and parsing them alone: ${result.readMs.toFixed(1)} ms, ${(result.reconcileMs / result.readMs).toFixed(2)}×)`);
}
