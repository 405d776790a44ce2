import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import type { DomainEvent } from '../src/events/catalog.js';
import { allProjections } from '../src/projections/all-projections.js';
import { fold } from '../src/projections/projector.js';
import { appendInSlices, projectionHarness } from './support/projection-harness.js';

const root = mkdtempSync(join(tmpdir(), 'engram-determinism-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let runs = 0;
const freshDir = () => join(root, String(++runs));

const arbitraryLog = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  sessions: fc.integer({ min: 1, max: 12 }),
  eventsPerSession: fc.integer({ min: 3, max: 40 }),
  projects: fc.integer({ min: 1, max: 4 }),
  cuts: fc.array(fc.integer({ min: 1, max: 500 }), { maxLength: 6 }),
});

describe('projections are a pure function of the log', () => {
  it('a full rebuild writes byte-identical files to the incremental run that saw the same events', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryLog, async ({ seed, sessions, eventsPerSession, projects, cuts }) => {
        const events = syntheticEvents({ seed, sessions, eventsPerSession, projects });
        const h = await projectionHarness(freshDir());
        try {
          const runner = await h.runner({ windowSize: 7 });
          await appendInSlices(h, runner, events, cuts);
          const incremental = h.snapshot();
          await runner.rebuild();
          expect(h.snapshot()).toEqual(incremental);
          // …and so does a worker that starts from nothing on the same log.
          const other = await projectionHarness(freshDir());
          await other.log.append(events);
          const fresh = await other.runner();
          await fresh.catchUp();
          const relocated = Object.fromEntries(Object.entries(other.snapshot()));
          expect(relocated).toEqual(incremental);
          await other.close();
        } finally {
          await h.close();
        }
      }),
      { numRuns: 12 },
    );
  });

  it('applying a batch twice has the effect of applying it once', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryLog, fc.integer({ min: 1, max: 99 }), async ({ seed, sessions, eventsPerSession, projects }, percent) => {
        const events = syntheticEvents({ seed, sessions, eventsPerSession, projects });
        const cut = Math.max(1, Math.floor((events.length * percent) / 100));
        const h = await projectionHarness(freshDir());
        try {
          const runner = await h.runner();
          await appendInSlices(h, runner, events, [cut]);
          const once = h.snapshot();
          // Lose every checkpoint after the first batch: the second batch is delivered again.
          const first = await projectionHarness(freshDir());
          await first.log.append(events.slice(0, cut));
          await (await first.runner()).catchUp();
          for (const name of ['sessions', 'trace', 'stats']) {
            writeFileSync(join(h.stateDir, `${name}.checkpoint`), readFileSync(join(first.stateDir, `${name}.checkpoint`)));
          }
          await first.close();
          const again = await h.runner();
          expect(again.status().every((s) => s.seq === cut)).toBe(true);
          await again.catchUp();
          expect(again.status().map((s) => [s.seq, s.fault])).toEqual(again.status().map(() => [events.length, undefined]));
          expect(h.snapshot()).toEqual(once);
          // And appending the very same events again stores nothing new.
          const result = await h.log.append(events);
          expect(result.appended).toEqual([]);
        } finally {
          await h.close();
        }
      }),
      { numRuns: 10 },
    );
  });

  it('folding a prefix and then the rest equals folding everything at once', () => {
    const catalog = defaultCatalog();
    fc.assert(
      fc.property(arbitraryLog, fc.double({ min: 0, max: 1, noNaN: true }), ({ seed, sessions, eventsPerSession, projects }, at) => {
        const events: DomainEvent[] = syntheticEvents({ seed, sessions, eventsPerSession, projects }).map((e, i) =>
          catalog.readStored({ ...e, seq: i + 1 }),
        );
        const cut = Math.floor(events.length * at);
        for (const { projector } of allProjections({ views: '/v', claude: '/c' })) {
          const whole = fold(projector, events);
          const prefix = fold(projector, events.slice(0, cut));
          const rest = fold(projector, events.slice(cut), prefix.state);
          expect(rest.state).toEqual(whole.state);
          const rows = (changes: Map<string, any>) => new Map([...changes].map(([key, change]) => [key, change.row]));
          expect(new Map([...rows(prefix.changes), ...rows(rest.changes)])).toEqual(rows(whole.changes));
        }
      }),
      { numRuns: 60 },
    );
  });
});
