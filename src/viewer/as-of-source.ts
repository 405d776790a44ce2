import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import { EngramError } from '../errors.js';
import type { EventCatalog } from '../events/catalog.js';
import type { EventLog } from '../log/event-log.js';
import { allProjections } from '../projections/all-projections.js';
import { ProjectionRunner } from '../engine/projection-runner.js';
import { StateStore } from '../engine/state-store.js';
import { VIEWED_PROJECTIONS, type ViewerSource } from './viewer-source.js';

const VIEWED = new Set<string>(VIEWED_PROJECTIONS);

export interface AsOfSource extends ViewerSource {
  close(): Promise<void>;
}

/**
 * The viewer's projections as they stood at `seq`: replayed from the live log into a scratch
 * directory of their own (state, views, memory files), as `engram replay` does, so the live
 * outputs are never touched. Removed on close.
 */
export async function openAsOf(options: { log: EventLog; catalog: EventCatalog; clock: Clock; dir: string; seq: number }): Promise<AsOfSource> {
  const { dir, seq } = options;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const store = await StateStore.open(join(dir, 'state'), { now: () => options.clock.now() });
  try {
    const runner = new ProjectionRunner({
      log: options.log,
      catalog: options.catalog,
      store,
      projections: allProjections({ views: join(dir, 'views'), claude: join(dir, 'claude') }).filter((p) => VIEWED.has(p.projector.name)),
      clock: options.clock,
    });
    await runner.start();
    await runner.runUntil(seq);
    const head = Math.min(seq, options.log.head);
    // Reads go to the live log, but never past the as-of point.
    const live = options.log;
    const log: EventLog = {
      id: live.id,
      head,
      read: (read = {}) => live.read({ ...read, to: Math.min(read.to ?? head, head) }),
      has: (ids) => live.has(ids),
      check: (check) => live.check(check),
      getMeta: (name) => live.getMeta(name),
      append: () => Promise.reject(new EngramError('USAGE', 'an as-of view is read-only')),
      setMeta: () => Promise.reject(new EngramError('USAGE', 'an as-of view is read-only')),
      close: async () => undefined,
    };
    return {
      head,
      log,
      rows: (projection) => runner.rowsOf(projection),
      async close() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
