import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { Packr } from 'msgpackr';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import type { DomainEvent } from '../src/events/catalog.js';
import { allProjections } from '../src/projections/all-projections.js';
import { fold } from '../src/projections/projector.js';
import { appendInSlices, projectionHarness } from './support/projection-harness.js';
import { memoryTmpdir } from './support/memory-tmpdir.js';

const root = mkdtempSync(join(memoryTmpdir(), 'engram-determinism-'));
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
        const saved = join(h.dir, 'state-at-cut');
        try {
          await h.log.append(events.slice(0, cut));
          await (await h.runner()).catchUp();
          // Keep the state as it stood after the first batch…
          await h.reopen(() => cpSync(h.stateDir, saved, { recursive: true }));
          await h.log.append(events.slice(cut));
          await (await h.runner()).catchUp();
          const once = h.snapshot();
          // …and lose everything committed since: the second batch is delivered again.
          await h.reopen(() => {
            rmSync(h.stateDir, { recursive: true });
            cpSync(saved, h.stateDir, { recursive: true });
          });
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

  // The crash-test loop found this under load: lanes run at their own pace, so the stats lane
  // and the memories lane reach a project's MEMORY.md in an order the machine picks (a lane held
  // up by a kill or a busy CPU); the file must be the one a fresh replay writes all the same.
  it('MEMORY.md is the same whichever lane reaches its directory first', async () => {
    const events = syntheticEvents({ seed: 7, sessions: 3, eventsPerSession: 12, projects: 1 });
    // Corrections the memories projection turns into memories, in the sessions' projects.
    const corrections = ['no, use pnpm here, not npm', 'this repo uses vitest, not jest'];
    let n = 0;
    for (const [i, event] of events.entries()) {
      if (event.type === 'PromptSubmitted' && i > 4 && n < corrections.length) {
        const prompt = corrections[n++]!;
        events[i] = { ...event, data: { prompt, chars: prompt.length, truncated: false } };
      }
    }
    expect(n).toBe(corrections.length);
    const memoryIndexes = (snapshot: Record<string, string>) => Object.entries(snapshot).filter(([path]) => path.endsWith('/MEMORY.md'));
    const runs: Array<Array<[string, string]>> = [];
    for (const first of ['stats', 'memories', undefined]) {
      const h = await projectionHarness(freshDir());
      try {
        await h.log.append(events);
        // One lane alone to the head first (as a lane a kill held back would find the other ahead), then all.
        if (first) await (await h.runner({ projections: allProjections(h.roots).filter((p) => p.projector.name === first) })).catchUp();
        await (await h.runner()).catchUp();
        runs.push(memoryIndexes(h.snapshot()));
      } finally {
        await h.close();
      }
    }
    expect(runs[0]!.length).toBeGreaterThan(0);
    // Both writers are in it.
    expect(runs[0]![0]![1]).toMatch(/auto-stats\.md[\s\S]*pnpm|pnpm[\s\S]*auto-stats\.md/);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
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
          const rest = fold(projector, events.slice(cut), prefix.rows);
          expect(rest.rows).toEqual(whole.rows);
          expect(new Map([...prefix.changes, ...rest.changes])).toEqual(whole.changes);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('evolve never changes a row it was given or returned before', () => {
    const catalog = defaultCatalog();
    const packr = new Packr({ structuredClone: true });
    fc.assert(
      fc.property(arbitraryLog, ({ seed, sessions, eventsPerSession, projects }) => {
        const events = syntheticEvents({ seed, sessions, eventsPerSession, projects }).map((e, i) => catalog.readStored({ ...e, seq: i + 1 }));
        for (const { projector } of allProjections({ views: '/v', claude: '/c' })) {
          const handled = new Set<string>(projector.handles);
          const rows = new Map<string, unknown>();
          // Every row as it was when it was stored, byte for byte.
          const sealed = new Map<string, Buffer>();
          for (const event of events) {
            if (!handled.has(event.type)) continue;
            for (const change of projector.evolve({ get: (key) => rows.get(key) }, event)) {
              rows.set(change.key, change.row);
              sealed.set(change.key, packr.pack(change.row));
            }
            for (const [key, bytes] of sealed) expect(packr.pack(rows.get(key)).equals(bytes), `${projector.name} ${key}`).toBe(true);
          }
        }
      }),
      { numRuns: 8 },
    );
  });
});
