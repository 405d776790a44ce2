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
