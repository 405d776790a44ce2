import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import type { Envelope } from '../src/events/envelope.js';
import { FileSink } from '../src/projections/file-sink.js';
import { rowChange, type RowChange } from '../src/projections/row-change.js';
import { allProjections } from '../src/projections/all-projections.js';
import { defineProjector, type Change, type Projection } from '../src/projections/projector.js';
import { projectionHarness } from './support/projection-harness.js';

const root = mkdtempSync(join(tmpdir(), 'engram-runner-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, String(++n));

/** Counts prompts per session into views/count/<session>; throws on a prompt saying "boom". */
function counter(projectorVersion: number, applied: string[] = []): Projection<unknown, Change> {
  const projector = defineProjector<Map<string, number>, RowChange<string>>({
    name: 'counter',
    projectorVersion,
    handles: ['PromptSubmitted'],
    initialState: () => new Map(),
    evolve(state, event) {
      if (event.type === 'PromptSubmitted' && event.data.prompt === 'boom') throw new Error('cannot count a boom');
      const count = (state.get(event.session) ?? 0) + 1;
      state.set(event.session, count);
      return { state, changes: [rowChange(event.session, `v${projectorVersion}:${count}\n`)] };
    },
  });
  return {
    projector,
    sink: {
      apply: async (changes: readonly RowChange<string>[]) => {
        applied.push(projector.name);
        await sinkFor(projector.name).apply(changes);
      },
      reset: () => sinkFor(projector.name).reset(),
    },
  } as unknown as Projection<unknown, Change>;
}

let currentRoots: { views: string; claude: string };
const sinkFor = (_name: string) =>
  new FileSink<string>({ root: currentRoots.views, ownedDirs: ['count'], materialize: (key, row) => [{ kind: 'write', path: `count/${key}`, content: row }] });

const prompt = (id: string, session: string, text: string, schemaVersion = 2): Envelope => ({
  id: `evt-${id}-0000`,
  type: 'PromptSubmitted',
  schemaVersion,
  ts: '2026-11-01T10:00:00.000Z',
  session,
  project: '/home/dev/p',
  data: schemaVersion === 1 ? { prompt: text } : { prompt: text, chars: text.length, truncated: false },
});

describe('the projection runner', () => {
  it('repairs a crash between a sink write and the checkpoint save: no output missing or doubled', async () => {
    const events = syntheticEvents({ seed: 7, sessions: 30, eventsPerSession: 40, projects: 3 });
    const clean = await projectionHarness(freshDir());
    await clean.log.append(events);
    await (await clean.runner()).catchUp();
    const expected = clean.snapshot();
    await clean.close();

    for (const crashAt of [1, 300, 800, events.length]) {
      const h = await projectionHarness(freshDir());
      await h.log.append(events);
      const crashing = await h.runner({
        windowSize: 100,
        afterSinkApplied: (name, seq) => {
          if (name === 'stats' && seq >= crashAt) throw new Error('killed between the sink and its checkpoint');
        },
      });
      await expect(crashing.catchUp()).rejects.toThrow('killed');
      const restarted = await h.runner({ windowSize: 100 });
      expect(restarted.status().find((s) => s.name === 'stats')!.seq).toBeLessThan(Math.max(crashAt, 1) + 100);
      await restarted.catchUp();
      expect(restarted.status()).toEqual(restarted.status().map((s) => ({ ...s, seq: events.length, fault: undefined })));
      expect(h.snapshot()).toEqual(Object.fromEntries(Object.entries(expected)));
      await h.close();
    }
  });

  it('stops a projector that throws at its last good event, reports why, and lets the others go on', async () => {
    const h = await projectionHarness(freshDir(), (roots) => ((currentRoots = roots), [counter(1), ...allProjections(roots)]));
    await h.log.append([prompt('a', 's1', 'one'), prompt('b', 's1', 'two'), prompt('c', 's1', 'boom'), prompt('d', 's1', 'four')]);
    const runner = await h.runner();
    await runner.catchUp();
    const status = Object.fromEntries(runner.status().map((s) => [s.name, s]));
    expect(status.counter!.seq).toBe(2);
    expect(status.counter!.fault).toMatchObject({ seq: 3, eventType: 'PromptSubmitted', message: 'cannot count a boom' });
    expect(h.snapshot()['views/count/s1']).toBe('v1:2\n');
    expect(status.sessions!.seq).toBe(4);
    expect(status.stats!.seq).toBe(4);
    // The fault survives a restart until the projector is fixed (a new projectorVersion) or rebuilt.
    const restarted = await h.runner();
    await restarted.catchUp();
    expect(restarted.status().find((s) => s.name === 'counter')!.fault?.seq).toBe(3);
    await h.close();
  });

  it('rebuilds a projector alone when its projectorVersion changes', async () => {
    const applied: string[] = [];
    let version = 1;
    const h = await projectionHarness(freshDir(), (roots) => ((currentRoots = roots), [counter(version, applied), ...allProjections(roots)]));
    await h.log.append([prompt('a', 's1', 'one'), prompt('b', 's2', 'two'), prompt('c', 's1', 'three')]);
    await (await h.runner()).catchUp();
    expect(h.snapshot()['views/count/s1']).toBe('v1:2\n');
    const before = h.snapshot();
    version = 2;
    const upgraded = await h.runner();
    expect(upgraded.status().find((s) => s.name === 'counter')!.seq).toBe(0);
    expect(upgraded.status().filter((s) => s.name !== 'counter').every((s) => s.seq === 3)).toBe(true);
    applied.length = 0;
    await upgraded.catchUp();
    expect(applied).toEqual(['counter']);
    const after = h.snapshot();
    expect(after['views/count/s1']).toBe('v2:2\n');
    expect(after['views/count/s2']).toBe('v2:1\n');
    for (const [path, content] of Object.entries(before)) if (!path.startsWith('views/count')) expect(after[path]).toBe(content);
    await h.close();
  });

  it('never holds a fast projector behind a slow one', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow = counter(1);
    const slowSink = { apply: async (changes: readonly Change[]) => (await gate, slow.sink.apply(changes)), reset: () => slow.sink.reset() };
    const h = await projectionHarness(freshDir(), (roots) => ((currentRoots = roots), [{ projector: slow.projector, sink: slowSink }, ...allProjections(roots)]));
    const runner = await h.runner();
    const errors: unknown[] = [];
    const kick = () => runner.kick({ onCaughtUp: () => undefined, onError: (err) => errors.push(err) });
    const seqs = () => Object.fromEntries(runner.status().map((s) => [s.name, s.seq]));
    const until = async (test: () => boolean) => {
      for (let i = 0; i < 500 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(test()).toBe(true);
    };
    await h.log.append([prompt('a', 's1', 'one'), prompt('b', 's1', 'two')]);
    kick();
    await until(() => seqs().stats === 2 && seqs().sessions === 2);
    await h.log.append([prompt('c', 's1', 'three')]);
    kick();
    // The counter is still stuck in its first sink write; the others have moved on twice.
    await until(() => seqs().stats === 3 && seqs().sessions === 3 && seqs().trace === 3);
    expect(seqs().counter).toBe(0);
    open();
    await runner.idle();
    await runner.catchUp();
    expect(seqs()).toEqual({ counter: 3, sessions: 3, trace: 3, stats: 3 });
    expect(errors).toEqual([]);
    await h.close();
  });

  it('projects an event of an old schemaVersion, read through its upcaster, like the new one', async () => {
    const oldLog = await projectionHarness(freshDir());
    const newLog = await projectionHarness(freshDir());
    await oldLog.log.append([prompt('a', 's1', 'fix the flaky test', 1)]);
    await newLog.log.append([prompt('a', 's1', 'fix the flaky test', 2)]);
    for (const h of [oldLog, newLog]) await (await h.runner()).catchUp();
    const snapshot = oldLog.snapshot();
    expect(Object.keys(snapshot).length).toBeGreaterThan(3);
    expect(snapshot).toEqual(newLog.snapshot());
    await oldLog.close();
    await newLog.close();
  });

  it('replays a prefix into another directory and leaves the live outputs alone', async () => {
    const events = syntheticEvents({ seed: 3, sessions: 4, eventsPerSession: 20, projects: 2 });
    const h = await projectionHarness(freshDir());
    await h.log.append(events);
    await (await h.runner()).catchUp();
    const live = h.snapshot();
    const prefix = await projectionHarness(freshDir());
    await prefix.log.append(events.slice(0, 30));
    await (await prefix.runner()).catchUp();
    const replayDir = freshDir();
    const { ProjectionRunner } = await import('../src/workers/engine/projection-runner.js');
    const { CheckpointStore } = await import('../src/workers/engine/checkpoint-store.js');
    const { defaultCatalog } = await import('../src/events/default-catalog.js');
    const { fixedClock } = await import('../src/clock.js');
    const replay = new ProjectionRunner({
      log: h.log,
      catalog: defaultCatalog(),
      store: new CheckpointStore(join(replayDir, 'state')),
      projections: allProjections({ views: join(replayDir, 'views'), claude: join(replayDir, 'claude') }),
      clock: fixedClock(new Date(0)),
    });
    await replay.start();
    await replay.runUntil(30);
    const replayed = await projectionHarness(replayDir);
    expect(replayed.snapshot()).toEqual(prefix.snapshot());
    expect(h.snapshot()).toEqual(live);
    expect(existsSync(join(replayDir, 'state', 'stats.checkpoint'))).toBe(true);
    await Promise.all([h.close(), prefix.close(), replayed.close()]);
  });
});
