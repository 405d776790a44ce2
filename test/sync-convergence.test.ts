import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { projectionHarness } from './support/projection-harness.js';

/**
 * Two machines that saw the same events fold them in their own log order (issue 23, item 4).
 * The real-server tests (sync.test.ts) show the same memory files when one machine made every
 * change; these fold the same events in two orders, as two machines that each made some would.
 */
const root = mkdtempSync(join(tmpdir(), 'engram-sync-convergence-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const PROJECT = '/home/dev/src/payments-api';

function prompt(id: string, text: string, ts: string): Envelope {
  return { id, type: 'PromptSubmitted', schemaVersion: 2, ts, session: `s-${id}`, project: PROJECT, data: { prompt: text, chars: text.length, truncated: false } };
}

async function memoryFilesAfter(events: readonly Envelope[]): Promise<Record<string, string>> {
  const h = await projectionHarness(join(root, String(++n)));
  await h.log.append(events);
  await (await h.runner()).catchUp();
  const files = Object.fromEntries(Object.entries(h.snapshot()).filter(([path]) => path.startsWith('claude/')));
  await h.close();
  return files;
}

const lessonsOnly = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([path]) => !/\/auto-[^/]+\.md$/.test(path)));

describe('convergence of the personal scope: the same events, two log orders', () => {
  it('two different lessons, one taught on each machine: the same lesson files and index whichever came first', async () => {
    const onA = prompt('evt-a-0000000001', 'from now on deploys go through Helm', '2026-06-01T10:00:00.000Z');
    const onB = prompt('evt-b-0000000001', 'No, I told you: integration tests must hit the real database', '2026-06-01T10:00:05.000Z');
    const [ab, ba] = [await memoryFilesAfter([onA, onB]), await memoryFilesAfter([onB, onA])];
    expect(Object.keys(lessonsOnly(ab)).length).toBeGreaterThanOrEqual(3);
    expect(lessonsOnly(ab)).toEqual(lessonsOnly(ba));
  });

  it('the stats files too: first seen is the earliest event, not the first folded', async () => {
    const onA = prompt('evt-a-0000000003', 'from now on deploys go through Helm', '2026-06-01T10:00:00.000Z');
    const onB = prompt('evt-b-0000000003', 'No, I told you: integration tests must hit the real database', '2026-06-01T10:00:05.000Z');
    expect(await memoryFilesAfter([onA, onB])).toEqual(await memoryFilesAfter([onB, onA]));
  });

  // The earlier telling (by time, then id) is the memory on both machines; the later one reinforces it.
  it('the same lesson taught on both machines in other words: one memory, the same on both', async () => {
    const onA = prompt('evt-a-0000000002', 'No, I told you to use pnpm, not npm!', '2026-06-01T10:00:00.000Z');
    const onB = prompt('evt-b-0000000002', 'from now on use pnpm, not npm', '2026-06-01T10:00:05.000Z');
    const [ab, ba] = [lessonsOnly(await memoryFilesAfter([onA, onB])), lessonsOnly(await memoryFilesAfter([onB, onA]))];
    expect(ba).toEqual(ab);
    const lesson = Object.entries(ab).find(([path]) => !path.endsWith('MEMORY.md'))!;
    expect(lesson[1]).toMatch(/memory_id: correction:evt-a-0000000002/);
    expect(lesson[1]).toMatch(/reinforced: 1/);
  });

  it('an edit made by id on one machine before the other telling arrived lands on the same memory on both', async () => {
    const onA = prompt('evt-a-0000000004', 'No, I told you to use pnpm, not npm!', '2026-06-01T10:00:00.000Z');
    const onB = prompt('evt-b-0000000004', 'from now on use pnpm, not npm', '2026-06-01T10:00:05.000Z');
    // B held its own telling when its user edited the file: the edit names B's id.
    const edit: Envelope = {
      id: 'evt-b-0000000005', type: 'MemoryEdited', schemaVersion: 1, ts: '2026-06-01T10:01:00.000Z', session: '', project: PROJECT,
      data: { memoryId: 'correction:evt-b-0000000004', by: 'hand', name: 'Use pnpm, not npm', description: 'Use pnpm, not npm', type: 'feedback', body: 'use pnpm, never npm (edited on B)\n', changed: ['body'] },
    };
    const forget: Envelope = {
      id: 'evt-a-0000000006', type: 'MemoryPinned', schemaVersion: 1, ts: '2026-06-01T10:02:00.000Z', session: '', project: PROJECT,
      data: { memoryId: 'correction:evt-a-0000000004' },
    };
    const onMachineA = lessonsOnly(await memoryFilesAfter([onA, forget, onB, edit]));
    const onMachineB = lessonsOnly(await memoryFilesAfter([onB, edit, onA, forget]));
    expect(onMachineB).toEqual(onMachineA);
    const lesson = Object.entries(onMachineA).find(([path]) => !path.endsWith('MEMORY.md'))!;
    expect(lesson[1]).toMatch(/edited on B/);
    expect(lesson[1]).toMatch(/pinned: true/);
  });
});

function edited(id: string, ts: string, memoryId: string, change: Partial<{ body: string; confidence: number; name: string }>): Envelope {
  const changed = Object.keys(change);
  return {
    id, type: 'MemoryEdited', schemaVersion: 1, ts, session: '', project: PROJECT,
    data: { memoryId, by: 'hand', name: change.name ?? 'Use pnpm, not npm', description: 'Use pnpm, not npm', type: 'feedback', body: change.body ?? 'use pnpm, not npm\n', ...(change.confidence === undefined ? {} : { confidence: change.confidence }), changed },
  };
}
const reinforced = (id: string, ts: string, memoryId: string): Envelope => ({ id, type: 'MemoryReinforced', schemaVersion: 1, ts, session: '', project: PROJECT, data: { memoryId, by: 'user' } });
const forgotten = (id: string, ts: string, memoryId: string): Envelope => ({ id, type: 'MemoryForgotten', schemaVersion: 1, ts, session: '', project: PROJECT, data: { memoryId, reason: `asked on ${id.slice(4, 5).toUpperCase()}` } });
const archived = (id: string, ts: string, memoryId: string): Envelope => ({ id, type: 'MemoryArchived', schemaVersion: 1, ts, session: '', project: PROJECT, data: { memoryId, reason: 'decayed' } });

const theLesson = (files: Record<string, string>) => Object.entries(lessonsOnly(files)).filter(([path]) => !path.endsWith('MEMORY.md'));

/** Every merge of two machines' events that keeps each machine's own order: what any machine's log may hold. */
function interleavings<T>(a: readonly T[], b: readonly T[]): T[][] {
  if (a.length === 0) return [[...b]];
  if (b.length === 0) return [[...a]];
  return [...interleavings(a.slice(1), b).map((rest) => [a[0]!, ...rest]), ...interleavings(a, b.slice(1)).map((rest) => [b[0]!, ...rest])];
}

/** A few of them that keep `before`, picked by a fixed seed (a test that fails fails again), the first and last merges always in. */
function someInterleavings<T>(a: readonly T[], b: readonly T[], count: number, seed: number, before: (merge: readonly T[]) => boolean = () => true): T[][] {
  const all = interleavings(a, b).filter(before);
  const picked = [all[0]!, all[all.length - 1]!];
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  while (picked.length < Math.min(count, all.length)) {
    const candidate = all[Math.floor(next() * all.length)]!;
    if (!picked.includes(candidate)) picked.push(candidate);
  }
  return picked;
}

describe('convergence of concurrent changes to one memory (issue 23, item 4)', () => {
  const tellA = prompt('evt-a-0000000101', 'No, I told you to use pnpm, not npm!', '2026-06-01T10:00:00.000Z');
  const A = 'correction:evt-a-0000000101';

  // Both machines hold A's memory; each person edits its body by hand, B's a minute later.
  it('the same field edited on both machines: the later edit (by time) is the file on both, whichever was folded last', async () => {
    const onA = edited('evt-a-0000000102', '2026-06-01T10:01:00.000Z', A, { body: 'use pnpm (edited on A)\n' });
    const onB = edited('evt-b-0000000102', '2026-06-01T10:02:00.000Z', A, { body: 'use pnpm (edited on B)\n' });
    const machineA = await memoryFilesAfter([tellA, onA, onB]);
    const machineB = await memoryFilesAfter([tellA, onB, onA]);
    expect(machineB).toEqual(machineA);
    const [[, text]] = theLesson(machineA) as [[string, string]];
    expect(text).toMatch(/edited on B/);
    expect(text).not.toMatch(/edited on A/);
  });

  it('edits of different fields on both machines: each field is its own edit\'s, on both', async () => {
    const onA = edited('evt-a-0000000103', '2026-06-01T10:02:00.000Z', A, { body: 'use pnpm (edited on A)\n' });
    const onB = edited('evt-b-0000000103', '2026-06-01T10:01:00.000Z', A, { name: 'pnpm only' });
    const machineA = await memoryFilesAfter([tellA, onA, onB]);
    expect(await memoryFilesAfter([tellA, onB, onA])).toEqual(machineA);
    const [[, text]] = theLesson(machineA) as [[string, string]];
    expect(text).toMatch(/edited on A/);
    expect(text).toMatch(/name: pnpm only/);
  });

  for (const [when, ts] of [['before', '2026-06-01T10:01:00.000Z'], ['after', '2026-06-01T10:03:00.000Z']] as const) {
    it(`forgotten on A ${when} B reinforced it: forgotten on both, the reinforcement counted on the archived file`, async () => {
      const forget = forgotten('evt-a-0000000104', ts, A);
      const again = reinforced('evt-b-0000000104', '2026-06-01T10:02:00.000Z', A);
      const machineA = await memoryFilesAfter([tellA, forget, again]);
      expect(await memoryFilesAfter([tellA, again, forget])).toEqual(machineA);
      const [[path, text]] = theLesson(machineA) as [[string, string]];
      expect(path).toMatch(/\/_archive\//);
      expect(text).toMatch(/reinforced: 1/);
      expect(text).toMatch(/confidence: 0\.7/);
    });
  }

  it('archived on one machine and forgotten on the other: the earlier archive\'s reason on both', async () => {
    const forget = forgotten('evt-a-0000000105', '2026-06-01T10:02:00.000Z', A);
    const decayed = archived('evt-b-0000000105', '2026-06-01T10:01:00.000Z', A);
    const machineA = await memoryFilesAfter([tellA, forget, decayed]);
    expect(await memoryFilesAfter([tellA, decayed, forget])).toEqual(machineA);
    expect(Object.values(lessonsOnly(machineA)).join('\n')).toMatch(/decayed/);
  });

  // A's person set the confidence before B's telling of the same lesson arrived; B then reinforced its own.
  it('a confidence edit before a takeover: only reinforcements stamped after the edit raise it, in either order', async () => {
    const tellB = prompt('evt-b-0000000106', 'from now on use pnpm, not npm', '2026-06-01T10:00:05.000Z');
    const setOnA = edited('evt-a-0000000106', '2026-06-01T10:01:00.000Z', A, { confidence: 0.3 });
    const againOnB = reinforced('evt-b-0000000107', '2026-06-01T10:02:00.000Z', 'correction:evt-b-0000000106');
    const machineA = await memoryFilesAfter([tellA, setOnA, tellB, againOnB]);
    const machineB = await memoryFilesAfter([tellB, againOnB, tellA, setOnA]);
    expect(machineB).toEqual(machineA);
    const [[, text]] = theLesson(machineA) as [[string, string]];
    // 0.3 as set, +0.1 for B's reinforcement at 10:02; B's telling (10:00:05) came before the edit.
    expect(text).toMatch(/confidence: 0\.4\b/);
    expect(text).toMatch(/reinforced: 2/);
  });

  it('the same on B\'s side: a confidence edit of B\'s telling, taken over by A\'s earlier one', async () => {
    const tellB = prompt('evt-b-0000000108', 'from now on use pnpm, not npm', '2026-06-01T10:00:05.000Z');
    const B = 'correction:evt-b-0000000108';
    const onB = [tellB, reinforced('evt-b-0000000109', '2026-06-01T10:00:30.000Z', B), edited('evt-b-0000000110', '2026-06-01T10:01:00.000Z', B, { confidence: 0.2 }), reinforced('evt-b-0000000111', '2026-06-01T10:02:00.000Z', B)];
    const onA = [tellA, reinforced('evt-a-0000000109', '2026-06-01T10:01:30.000Z', A)];
    const machineA = await memoryFilesAfter([...onA, ...onB]);
    expect(await memoryFilesAfter([...onB, ...onA])).toEqual(machineA);
    const [[, text]] = theLesson(machineA) as [[string, string]];
    // 0.2 as set at 10:01, +0.1 for A's reinforcement at 10:01:30 and B's at 10:02.
    expect(text).toMatch(/confidence: 0\.4\b/);
    expect(text).toMatch(/reinforced: 4/);
  });

  // Each machine's events in its own order; any merge of the two is a log some machine may hold.
  // Each machine archived the lesson after it had heard the other's telling: a telling that
  // reaches a machine after its memory was archived there is a memory of its own (docs/team-sync.md).
  it('a handful of changes to one lesson from two machines: every sampled merge folds to the same files and MEMORY.md', async () => {
    const B = 'correction:evt-b-0000000121';
    const onA = [
      tellA,
      reinforced('evt-a-0000000122', '2026-06-01T10:00:20.000Z', A),
      edited('evt-a-0000000123', '2026-06-01T10:01:10.000Z', A, { body: 'use pnpm (edited on A)\n' }),
      edited('evt-a-0000000124', '2026-06-01T10:01:40.000Z', A, { confidence: 0.5 }),
      forgotten('evt-a-0000000125', '2026-06-01T10:03:00.000Z', A),
    ];
    const onB = [
      prompt('evt-b-0000000121', 'from now on use pnpm, not npm', '2026-06-01T10:00:05.000Z'),
      edited('evt-b-0000000122', '2026-06-01T10:01:20.000Z', B, { body: 'use pnpm (edited on B)\n', name: 'pnpm, never npm' }),
      reinforced('evt-b-0000000123', '2026-06-01T10:02:00.000Z', B),
      archived('evt-b-0000000124', '2026-06-01T10:02:30.000Z', B),
    ];
    const at = (merge: readonly Envelope[], id: string) => merge.findIndex((e) => e.id === id);
    const heardBoth = (merge: readonly Envelope[]) => at(merge, 'evt-a-0000000125') > at(merge, 'evt-b-0000000121') && at(merge, 'evt-b-0000000124') > at(merge, 'evt-a-0000000101');
    const merges = someInterleavings(onA, onB, 12, 23, heardBoth);
    expect(merges.length).toBe(12);
    const first = await memoryFilesAfter(merges[0]!);
    for (const merge of merges.slice(1)) expect(await memoryFilesAfter(merge), merge.map((e) => e.id).join(' ')).toEqual(first);
    const [[path, text]] = theLesson(first) as [[string, string]];
    expect(path).toMatch(/\/_archive\//);
    expect(text).toMatch(/memory_id: correction:evt-a-0000000101/);
    expect(text).toMatch(/edited on B/);
    expect(text).toMatch(/name: pnpm, never npm/);
    // 0.5 as A set it at 10:01:40, +0.1 for B's reinforcement at 10:02 only.
    expect(text).toMatch(/confidence: 0\.6\b/);
    expect(text).toMatch(/reinforced: 3/);
    // The earlier archive (B's, 10:02:30) is the one the index says, before A's forget at 10:03.
    expect(first['claude/projects/-home-dev-src-payments-api/memory/MEMORY.md']).toMatch(/\[pnpm, never npm\]\(_archive\/use-pnpm-not-npm\.md\) — archived 2026-06-01: decayed/);
  });
});
