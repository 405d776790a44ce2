import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { proposalEvents } from '../bench/flat-cost-bench.js';
import { allProjections } from '../src/projections/all-projections.js';
import type { StateStore } from '../src/engine/state-store.js';
import { projectionHarness } from './support/projection-harness.js';

// A worker that restarts keeps no rows in memory: the first proposals in a crowded directory
// ask the memories lane for a hundred committed rows each (the tokens' index rows, their chunks,
// the directory's, the rank rows). They are read a few at a time in one read each (the rows an
// event asks for on its way, learned by folding it on trial), not one read a row (issue 22:
// a proposal costs the same with 10 or 5,000 memories in its directory).
const root = mkdtempSync(join(tmpdir(), 'engram-row-loading-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The store, its lanes' reads counted: how many reads, and how many rows they asked for. */
function counted(store: StateStore): { store: StateStore; reads: number[] } {
  const reads: number[] = [];
  const bound = <T extends object>(target: T, prop: string | symbol) => {
    const value = Reflect.get(target, prop, target) as unknown;
    return typeof value === 'function' ? value.bind(target) : value;
  };
  const proxy = new Proxy(store, {
    get(target, prop) {
      if (prop !== 'lane') return bound(target, prop);
      return async (name: string) => {
        const lane = await target.lane(name);
        return new Proxy(lane, {
          get(laneTarget, laneProp) {
            if (laneProp !== 'rows') return bound(laneTarget, laneProp);
            return (keys: readonly string[]) => (reads.push(keys.length), laneTarget.rows(keys));
          },
        });
      };
    },
  });
  return { store: proxy, reads };
}

describe('rows a restarted runner loads', () => {
  it('reads the committed rows a proposal asks for a batch at a time, and folds it as a runner that never stopped does', async () => {
    const memoriesOnly = (roots: { views: string; claude: string }) => allProjections(roots).filter((p) => p.projector.name === 'memories');
    const h = await projectionHarness(join(root, 'crowded'), memoriesOnly);
    const never = await projectionHarness(join(root, 'never-stopped'), memoriesOnly);
    try {
      const history = proposalEvents(400, 7, '2026-01-01T08:00:00.000Z', 'h');
      const next = proposalEvents(3, 99, '2027-01-01T08:00:00.000Z', 'n');
      for (const x of [h, never]) await x.log.append(history);
      await (await h.runner()).catchUp();
      const going = await never.runner();
      await going.catchUp();

      const { store, reads } = counted(h.store);
      const restarted = await h.runner({ store });
      for (const event of next) {
        await h.log.append([event]);
        await never.log.append([event]);
        reads.length = 0;
        await restarted.catchUp();
        await going.catchUp();
        const asked = reads.reduce((a, b) => a + b, 0);
        // Many rows, few reads: before, one read a row (about 80 at 5,000 memories).
        expect(asked).toBeGreaterThan(20);
        expect(reads.length).toBeLessThanOrEqual(4);
      }
      const rowsOf = async (x: typeof h) => {
        const rows: Array<[string, unknown]> = [];
        for await (const entry of (await x.store.lane('memories')).entries()) rows.push(entry);
        return rows;
      };
      expect(await rowsOf(h)).toEqual(await rowsOf(never));
      expect(h.snapshot()).toEqual(never.snapshot());
    } finally {
      await h.close();
      await never.close();
    }
  }, 120_000);
});
