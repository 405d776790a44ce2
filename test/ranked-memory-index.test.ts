import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateStore, type LaneStore } from '../src/engine/state-store.js';
import { sinkContext } from '../src/engine/sink-context.js';
import { MEMORY_TYPES, TIERS } from '../src/events/memory-kinds.js';
import { mergeIndexText, type MemoryIndex } from '../src/ownership/memory-index-lines.js';
import { indexRows, memoryIndex, rankedMemoryIndex } from '../src/projections/memories/directory-index.js';
import { memoriesProjector } from '../src/projections/memories/memories.js';
import { SCORING } from '../src/memories/scores.js';
import { entriesOf, entryKey, type MemoriesRow } from '../src/projections/memories/memories-rows.js';
import type { DirEntry, DirRow } from '../src/projections/memories/memory-row.js';

/**
 * MEMORY.md read from the ranked rows (the first lines only, in order, lazily, in real LevelDB
 * with a round's changes over the committed rows) against the render from every entry: on random
 * directories of every kind of memory the index shows or leaves out, the lines are the same, and
 * the merged file is the same byte for byte unless the merge says it needs the whole index.
 */

const DIR = 'projects/-home-dev-src-ranked/memory';
const AS_OF = '2026-06-01T12:00:00.000Z';

let root: string;
let store: StateStore;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'engram-ranked-'));
  store = await StateStore.open(join(root, 'state'), { now: () => new Date(AS_OF) });
});
afterAll(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

let lanes = 0;

/** Times around AS_OF: long ago, recent, equal, after it (a future date), and no date at all. */
const lastReinforced = fc.oneof(
  fc.constantFrom('2020-01-01T00:00:00.000Z', '2026-05-31T12:00:00.000Z', AS_OF, '2026-06-01T12:00:00.001Z', '2027-01-01T00:00:00.000Z', 'someday', '2026-02-30', ''),
  fc.integer({ min: -4000, max: 400 }).map((days) => new Date(Date.parse(AS_OF) + days * 86_400_000 + days * 7).toISOString()),
);
const archivedAt = fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-03-03T03:03:03.000Z', '2026-03-03T03:03:03.000Z', '2026-03-03', '2026-05-05T05:05:05.500Z');
const entryShape = fc.record({
  name: fc.constantFrom('alpha', 'beta', 'beta', 'gamma <x>', 'delta](y)', 'ε'),
  description: fc.constantFrom('', 'what it says', 'what it says', 'a [link](elsewhere.md) and more'),
  type: fc.constantFrom(...MEMORY_TYPES),
  tier: fc.option(fc.constantFrom(...TIERS), { nil: undefined }),
  status: fc.constantFrom('active', 'active', 'active', 'provisional', 'superseded'),
  confidence: fc.constantFrom(0, 0.1, 0.3, 0.5, 0.5, 0.6, 1, 1.5, Number.NaN),
  lastReinforced,
  pinned: fc.boolean(),
  archived: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.record({ at: archivedAt, reason: fc.constantFrom('decayed', 'forgotten: no') }), weight: 1 }),
  indexLines: fc.oneof({ arbitrary: fc.constant(undefined), weight: 15 }, { arbitrary: fc.constant(['- inline line']), weight: 1 }),
  /** Where its rows are: committed, in the round's changes, or committed in an older form the round replaces. */
  where: fc.constantFrom('committed', 'changed', 'moved'),
});

type Shape = typeof entryShape extends fc.Arbitrary<infer T> ? T : never;

function toEntry(shape: Shape, i: number): DirEntry {
  return {
    id: `m${i.toString(36)}`,
    file: `file-${(i * 7919) % 1000}.md`,
    name: shape.name,
    description: shape.description,
    type: shape.type,
    tier: shape.tier,
    status: shape.status as DirEntry['status'],
    confidence: shape.confidence,
    lastReinforced: shape.lastReinforced,
    pinned: shape.pinned,
    archived: shape.archived,
    penalty: 0,
    ...(shape.indexLines ? { indexLines: shape.indexLines } : {}),
    tokens: [],
  };
}

/** A lane in real LevelDB holding `entries` and their index rows, some only in the round's changes. */
async function laneWith(shapes: Array<Shape>): Promise<{ lane: LaneStore; changed: Map<string, unknown>; entries: DirEntry[] }> {
  const lane = await store.lane(`ranked-${lanes++}`);
  // A sublevel opens with its first read, as the runner's lanes do (their checkpoint).
  await lane.checkpoint();
  const committed = new Map<string, MemoriesRow>();
  const changed = new Map<string, unknown>();
  const entries = shapes.map(toEntry);
  entries.forEach((entry, i) => {
    const rows = new Map<string, MemoriesRow>([[entryKey(DIR, entry.id), entry], ...indexRows(DIR, entry)]);
    const where = shapes[i]!.where;
    if (where === 'moved') {
      // Committed as it was before the round: stronger, active, not archived; the round moves it.
      const before: DirEntry = { ...entry, status: 'active', archived: undefined, confidence: 1, lastReinforced: '2026-06-01T00:00:00.000Z' };
      for (const [key, row] of [[entryKey(DIR, entry.id), before] as const, ...indexRows(DIR, before)]) committed.set(key, row);
      for (const key of indexRows(DIR, before).keys()) if (!rows.has(key)) changed.set(key, null);
    }
    for (const [key, row] of rows) (where === 'committed' ? committed : changed).set(key, row);
  });
  await lane.commit({ rows: committed, outputs: [], failures: [] });
  return { lane, changed, entries };
}

/** The first `limit` of a list when more follow, else all of it. */
function expectPrefix<T>(partial: readonly T[], more: boolean | undefined, full: readonly T[], limit: number): void {
  if (more) {
    expect(full.length).toBeGreaterThan(limit);
    expect(partial).toEqual(full.slice(0, limit));
  } else expect(partial).toEqual(full);
}

const existingLine = fc.oneof(
  fc.constantFrom('', '# Notes', 'free text', '## Archive Index', '- [file-0.md](file-0.md) — mine, by hand', '- [file-7.md](file-7.md) — my words'),
  fc.nat(999).map((n) => `- [file-${n}.md](file-${n}.md) — by hand ${n}`),
);

describe('MEMORY.md from the ranked rows', () => {
  it('shows the same lines as the render from every entry, on random directories', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entryShape, { maxLength: 60 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(AS_OF, '2026-06-01T12:00:00.000Z', '2031-01-01T00:00:00.000Z', 'not a time'),
        fc.array(existingLine, { maxLength: 30 }),
        // Hand-written lines that leave the index little room: then a partial index can be enough.
        fc.oneof(fc.constant(0), fc.integer({ min: 180, max: 200 })),
        fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
        async (shapes, shownLimit, archivedLimit, asOf, lines, filler, recorded) => {
          const existing = [...lines, ...Array.from({ length: filler }, (_, i) => `note ${i}`)];
          const { lane, changed, entries } = await laneWith(shapes);
          const scan = sinkContext({ store: lane, written: undefined }, store.ownership, changed).scan;
          const dir: DirRow = { dir: DIR, project: '/home/dev/src/ranked', asOf };
          const full = memoryIndex(dir, await entriesOf(scan, DIR));
          expect(full).toEqual(memoryIndex(dir, entries.sort((a, b) => (a.id < b.id ? -1 : 1))));
          const ranked = await rankedMemoryIndex(dir, scan, { shown: shownLimit, archived: archivedLimit });
          expectPrefix(ranked.shown, ranked.moreShown, full.shown, shownLimit);
          expectPrefix(ranked.archived, ranked.moreArchived, full.archived, archivedLimit);
          expect([...(ranked.replaces ?? [])].sort()).toEqual([...(full.replaces ?? [])].sort());

          // The merged file: the same bytes, unless the merge asks for the whole index.
          const text = Buffer.from(existing.length > 0 ? `${existing.join('\n')}\n` : '');
          const owned = recorded ? mergeIndexText(text, undefined, { kind: 'memories', index: full }).owned : undefined;
          const merged = mergeIndexText(text, owned, { kind: 'memories', index: ranked });
          const whole = mergeIndexText(text, owned, { kind: 'memories', index: full });
          expect(whole.short).toBe(false);
          if (!merged.short) {
            expect(merged.bytes.toString()).toBe(whole.bytes.toString());
            expect(merged.owned).toEqual(whole.owned);
          }
          await lane.reset(undefined);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads the 200 lines MEMORY.md can hold of a large directory, and they are the full render\'s', async () => {
    const shapes = fc.sample(entryShape, { numRuns: 2500, seed: 22 });
    const { lane, changed } = await laneWith(shapes);
    const scan = sinkContext({ store: lane, written: undefined }, store.ownership, changed).scan;
    const dir: DirRow = { dir: DIR, project: '/home/dev/src/ranked', asOf: AS_OF };
    const full: MemoryIndex = memoryIndex(dir, await entriesOf(scan, DIR));
    let read = 0;
    const counting: typeof scan = async function* (prefix) {
      for await (const row of scan(prefix)) {
        read++;
        yield row;
      }
    };
    const ranked = await rankedMemoryIndex(dir, counting);
    expect(ranked.moreShown).toBe(true);
    expect(ranked.shown).toEqual(full.shown.slice(0, 200));
    expect(ranked.archived).toEqual(full.archived.slice(0, 20));
    const owned = mergeIndexText(undefined, undefined, { kind: 'memories', index: full }).owned;
    const merged = mergeIndexText(Buffer.from('# Notes\n'), owned, { kind: 'memories', index: ranked });
    expect(merged.short).toBe(false);
    expect(merged.bytes.toString()).toBe(mergeIndexText(Buffer.from('# Notes\n'), owned, { kind: 'memories', index: full }).bytes.toString());
    // Fewer rows than a third of the directory's were read to decide it.
    expect(read).toBeLessThan(shapes.length / 3);
    await lane.reset(undefined);
  });
});

describe('the rank rows and the scoring table', () => {
  // A rank row's key holds log2(confidence) + t/h for its half-life h, made when the row was
  // folded: rows folded under other half-lives would be read in the wrong order. A change to the
  // table must come with a new memories projectorVersion (every lane folding it then rebuilds).
  it('are keyed by the half-lives the memories projectorVersion was made for', () => {
    expect({ projectorVersion: memoriesProjector.projectorVersion, byType: SCORING.halfLifeDaysByType, byTier: SCORING.halfLifeDaysByTier }).toEqual({
      projectorVersion: 6,
      byType: { value: 365, insight: 180, user: 180, feedback: 90, reference: 60, project: 14, unknown: 30 },
      byTier: { preference: 180, procedural: 365, fact: 180, episodic: 30, working: 1, idea: Infinity, rule: 90 },
    });
  });
});
