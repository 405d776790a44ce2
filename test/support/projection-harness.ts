import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixedClock } from '../../src/clock.js';
import { defaultCatalog } from '../../src/events/default-catalog.js';
import type { Envelope } from '../../src/events/envelope.js';
import { LevelEventLog } from '../../src/log/level-event-log.js';
import { allProjections } from '../../src/projections/all-projections.js';
import type { Projection } from '../../src/projections/projector.js';
import { ProjectionRunner, type RunnerOptions } from '../../src/engine/projection-runner.js';
import { StateStore } from '../../src/engine/state-store.js';
import { walkFiles } from './temp-home.js';

export interface Harness {
  dir: string;
  log: LevelEventLog;
  roots: { views: string; claude: string };
  stateDir: string;
  /** The projections' state store; `reopen()` replaces it. */
  readonly store: StateStore;
  /** A new runner over the same log, store and outputs: what a restarted worker would build. */
  runner(options?: Partial<RunnerOptions>): Promise<ProjectionRunner>;
  /** Closes the state store, runs `meanwhile` (which may change its files), and opens it again. */
  reopen(meanwhile?: () => void | Promise<void>): Promise<void>;
  /** Every output file under the roots, by path under `views/` or `claude/`. */
  snapshot(): Record<string, string>;
  close(): Promise<void>;
}

export const harnessClock = fixedClock(new Date('2026-12-01T00:00:00.000Z'));

export async function projectionHarness(dir: string, projections?: (roots: Harness['roots']) => Projection[]): Promise<Harness> {
  mkdirSync(dir, { recursive: true });
  const log = await LevelEventLog.open(join(dir, 'log'));
  const roots = { views: join(dir, 'views'), claude: join(dir, 'claude') };
  const stateDir = join(dir, 'state');
  const open = () => StateStore.open(stateDir, { now: () => harnessClock.now() });
  let store = await open();
  return {
    dir,
    log,
    roots,
    stateDir,
    get store() {
      return store;
    },
    async runner(options = {}) {
      const runner = new ProjectionRunner({
        log,
        catalog: defaultCatalog(),
        store,
        projections: (projections ?? allProjections)(roots),
        clock: harnessClock,
        ...options,
      });
      await runner.start();
      return runner;
    },
    async reopen(meanwhile) {
      await store.close();
      await meanwhile?.();
      store = await open();
    },
    snapshot: () => walkFiles(roots.views, roots.claude),
    async close() {
      await store.close();
      await log.close();
    },
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
