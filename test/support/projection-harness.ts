import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixedClock } from '../../src/clock.js';
import { defaultCatalog } from '../../src/events/default-catalog.js';
import type { Envelope } from '../../src/events/envelope.js';
import { LevelEventLog } from '../../src/log/level-event-log.js';
import { allProjections } from '../../src/projections/all-projections.js';
import type { Change, Projection } from '../../src/projections/projector.js';
import { CheckpointStore } from '../../src/workers/engine/checkpoint-store.js';
import { ProjectionRunner, type RunnerOptions } from '../../src/workers/engine/projection-runner.js';
import { walkFiles } from './temp-home.js';

export interface Harness {
  dir: string;
  log: LevelEventLog;
  roots: { views: string; claude: string };
  stateDir: string;
  /** A new runner over the same log, store and outputs: what a restarted worker would build. */
  runner(options?: Partial<RunnerOptions>): Promise<ProjectionRunner>;
  /** Every output file under the roots, by path under `views/` or `claude/`. */
  snapshot(): Record<string, string>;
  close(): Promise<void>;
}

export async function projectionHarness(dir: string, projections?: (roots: Harness['roots']) => Projection<unknown, Change>[]): Promise<Harness> {
  mkdirSync(dir, { recursive: true });
  const log = await LevelEventLog.open(join(dir, 'log'));
  const roots = { views: join(dir, 'views'), claude: join(dir, 'claude') };
  const stateDir = join(dir, 'state');
  return {
    dir,
    log,
    roots,
    stateDir,
    async runner(options = {}) {
      const runner = new ProjectionRunner({
        log,
        catalog: defaultCatalog(),
        store: new CheckpointStore(stateDir),
        projections: (projections ?? allProjections)(roots),
        clock: fixedClock(new Date('2026-12-01T00:00:00.000Z')),
        ...options,
      });
      await runner.start();
      return runner;
    },
    snapshot: () => walkFiles(roots.views, roots.claude),
    close: () => log.close(),
  };
}

/** Appends in slices of the given sizes, catching the runner up after each: an incremental run. */
export async function appendInSlices(h: Harness, runner: ProjectionRunner, events: Envelope[], cuts: number[]): Promise<void> {
  let start = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < events.length).sort((a, b) => a - b), events.length]) {
    if (cut <= start) continue;
    await h.log.append(events.slice(start, cut));
    await runner.catchUp();
    start = cut;
  }
}
