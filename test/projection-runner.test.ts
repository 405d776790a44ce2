import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import type { Envelope } from '../src/events/envelope.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { projectMemoryDir, projectSlug } from '../src/paths.js';
import { allProjections } from '../src/projections/all-projections.js';
import { FileSink } from '../src/projections/file-sink.js';
import { defineProjector, type Projection, type Sink } from '../src/projections/projector.js';
import { rowChange } from '../src/projections/row-change.js';
import { ProjectionRunner } from '../src/engine/projection-runner.js';
import { StateStore } from '../src/engine/state-store.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { harnessClock, projectionHarness, type Harness } from './support/projection-harness.js';

/** Every lane of this build (the projections grow; the test names none of them twice) at `seq`. */
function everyLaneAt(seq: number): Record<string, number> {
  return Object.fromEntries(allProjections({ views: '/nowhere', claude: '/nowhere' }).map((p) => [p.projector.name, seq]));
}

const root = mkdtempSync(join(tmpdir(), 'engram-runner-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, String(++n));

/** Counts prompts per session into views/count/<session>; throws on a prompt saying "boom". */
function counter(roots: Harness['roots'], projectorVersion: number, applied: string[] = []): Projection {
  const projector = defineProjector<number>({
    name: 'counter',
    projectorVersion,
    handles: ['PromptSubmitted'],
    evolve(state, event) {
      if (event.type === 'PromptSubmitted' && event.data.prompt === 'boom') throw new Error('cannot count a boom');
      return [rowChange(event.session, (state.get(event.session) ?? 0) + 1)];
    },
  });
  const files = new FileSink<number>({
    root: roots.views,
    ownedDirs: ['count'],
    shared: false,
    materialize: (key, row) => [{ kind: 'write', path: `count/${key}`, content: `v${projectorVersion}:${row}\n` }],
  });
  const sink: Sink<number> = {
    apply: (changes, context) => (applied.push(projector.name), files.apply(changes, context)),
    reset: () => files.reset(),
    locate: (path) => files.locate(path),
  };
  return { projector, sink } as Projection;
}

/** A projection whose sink throws while `blocked()` says so, then heals. */
function failing(projection: Projection, blocked: () => boolean): Projection {
  const { sink } = projection;
  return {
    projector: projection.projector,
    sink: {
      apply: async (changes, context) => {
        if (blocked()) throw new Error('the disk is full');
        return sink.apply(changes, context);
      },
      reset: () => sink.reset(),
      locate: sink.locate?.bind(sink),
    },
  };
}

const prompt = (id: string, session: string, text: string, schemaVersion = 2, project = '/home/dev/p'): Envelope => ({
  id: `evt-${id}-0000`,
  type: 'PromptSubmitted',
  schemaVersion,
  ts: '2026-11-01T10:00:00.000Z',
  session,
  project,
  data: schemaVersion === 1 ? { prompt: text } : { prompt: text, chars: text.length, truncated: false },
});

/** What a fresh runner makes of these events: the outputs every failure must end up equal to. */
async function cleanRun(events: Envelope[]): Promise<Record<string, string>> {
  const clean = await projectionHarness(freshDir());
  await clean.log.append(events);
  await (await clean.runner()).catchUp();
  const expected = clean.snapshot();
  await clean.close();
  return expected;
}

const seqs = (runner: ProjectionRunner) => Object.fromEntries(runner.status().map((s) => [s.name, s.seq]));

describe('the projection runner', () => {
  it('repairs a crash between a sink write and the commit: no output missing or doubled', async () => {
    const events = syntheticEvents({ seed: 7, sessions: 30, eventsPerSession: 40, projects: 3 });
    const expected = await cleanRun(events);
    for (const crashAt of [1, 300, 800, events.length]) {
      const h = await projectionHarness(freshDir());
      await h.log.append(events);
      const crashing = await h.runner({
        windowSize: 100,
        afterSinkApplied: (name, seq) => {
          if (name === 'stats' && seq >= crashAt) throw new Error('killed between the sink and its commit');
        },
      });
      await expect(crashing.catchUp()).rejects.toThrow('killed');
      await h.reopen();
      const restarted = await h.runner({ windowSize: 100 });
      expect(seqs(restarted).stats).toBeLessThan(Math.max(crashAt, 1) + 100);
      await restarted.catchUp();
      expect(restarted.status().every((s) => s.seq === events.length && !s.fault)).toBe(true);
      expect(h.snapshot()).toEqual(expected);
      await h.close();
    }
  });

  it('goes back to its last commit when a sink fails for a few rounds, so nothing is counted twice', async () => {
    const events = syntheticEvents({ seed: 17, sessions: 12, eventsPerSession: 30, projects: 2 });
    const expected = await cleanRun(events);
    let failures = 5;
    const h = await projectionHarness(freshDir(), (roots) =>
      allProjections(roots).map((p) => (p.projector.name === 'stats' ? failing(p, () => failures-- > 0) : p)),
    );
    const runner = await h.runner({ windowSize: 13 });
    const errors: unknown[] = [];
    for (let start = 0; start < events.length; start += 40) {
      await h.log.append(events.slice(start, start + 40));
      await runner.catchUp().catch((err: unknown) => errors.push(err));
    }
    expect(errors.length).toBeGreaterThan(0);
    expect(runner.status().find((s) => s.name === 'stats')!.seq).toBe(events.length);
    // Exactly what a run that never failed wrote: the prompts were counted once.
    expect(h.snapshot()).toEqual(expected);
    await h.close();
  });

  it('writes every other project while one memory directory cannot be written, then that one too once it can', async () => {
    const events = syntheticEvents({ seed: 23, sessions: 20, eventsPerSession: 25, projects: 3 });
    const expected = await cleanRun(events);
    const h = await projectionHarness(freshDir());
    const blocked = events[0]!.project;
    // A file where the project's directory should be: every write under it fails (ENOTDIR).
    const blocker = join(h.roots.claude, 'projects', projectSlug(blocked));
    mkdirSync(join(h.roots.claude, 'projects'), { recursive: true });
    writeFileSync(blocker, 'not a directory');
    await h.log.append(events);
    const runner = await h.runner({ retryFailedMs: 0 });
    await runner.catchUp();
    const stats = runner.status().find((s) => s.name === 'stats')!;
    expect(stats.seq).toBe(events.length);
    expect(stats.failedRows.map((f) => f.key)).toEqual([`project:${blocked}`]);
    expect(stats.failedRows[0]!.message).toMatch(/ENOTDIR|EEXIST/);
    const written = h.snapshot();
    const others = Object.keys(expected).filter((path) => !path.includes(`/${projectMemoryDir(blocked)}/`));
    for (const path of others) expect(written[path], path).toBe(expected[path]);
    // Unblocked: the next round writes the row that failed.
    rmSync(blocker);
    await runner.catchUp();
    expect(runner.status().find((s) => s.name === 'stats')!.failedRows).toEqual([]);
    expect(h.snapshot()).toEqual(expected);
    await h.close();
  });

  it('stops a projector that throws at its last good event, reports why, and lets the others go on', async () => {
    const h = await projectionHarness(freshDir(), (roots) => [counter(roots, 1), ...allProjections(roots)]);
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
    await h.reopen();
    const restarted = await h.runner();
    await restarted.catchUp();
    expect(restarted.status().find((s) => s.name === 'counter')!.fault?.seq).toBe(3);
    await h.close();
  });

  it('rebuilds a projector alone when its projectorVersion changes, and only when it is advanced', async () => {
    const applied: string[] = [];
    let version = 1;
    const h = await projectionHarness(freshDir(), (roots) => [counter(roots, version, applied), ...allProjections(roots)]);
    await h.log.append([prompt('a', 's1', 'one'), prompt('b', 's2', 'two'), prompt('c', 's1', 'three')]);
    await (await h.runner()).catchUp();
    expect(h.snapshot()['views/count/s1']).toBe('v1:2\n');
    const before = h.snapshot();
    version = 2;
    const upgraded = await h.runner();
    const counterStatus = upgraded.status().find((s) => s.name === 'counter')!;
    expect(counterStatus.resetPending).toBe('its projectorVersion changed from 1 to 2');
    // Starting a runner (what a read-only command does) changed nothing yet.
    expect(h.snapshot()).toEqual(before);
    expect(upgraded.status().filter((s) => s.name !== 'counter').every((s) => s.seq === 3)).toBe(true);
    applied.length = 0;
    await upgraded.catchUp();
    expect(applied).toEqual(['counter']);
    const after = h.snapshot();
    expect(after['views/count/s1']).toBe('v2:2\n');
    expect(after['views/count/s2']).toBe('v2:1\n');
    for (const [path, content] of Object.entries(before)) if (!path.startsWith('views/count')) expect(after[path]).toBe(content);
    expect(upgraded.status().find((s) => s.name === 'counter')!.lastReset?.reason).toBe('its projectorVersion changed from 1 to 2');
    await h.close();
  });

  it('rebuilds a projection alone when its checkpoint cannot be read, and says why', async () => {
    const events = syntheticEvents({ seed: 29, sessions: 6, eventsPerSession: 20, projects: 2 });
    const expected = await cleanRun(events);
    const h = await projectionHarness(freshDir());
    await h.log.append(events);
    await (await h.runner()).catchUp();
    await h.reopen(async () => {
      // A torn value where the trace projection's checkpoint was.
      const raw = new Level<string, Buffer>(h.stateDir, { valueEncoding: 'buffer' });
      await raw.open();
      await raw.put('!p.trace.0!c', Buffer.from([0xc1, 0x00, 0x07]));
      await raw.close();
    });
    const runner = await h.runner();
    const status = Object.fromEntries(runner.status().map((s) => [s.name, s]));
    expect(status.trace!.resetPending).toBe('its checkpoint could not be read');
    expect(status.sessions!.resetPending).toBeUndefined();
    expect(status.sessions!.seq).toBe(events.length);
    await runner.catchUp();
    expect(seqs(runner)).toEqual(everyLaneAt(events.length));
    expect(runner.status().find((s) => s.name === 'trace')!.lastReset?.reason).toBe('its checkpoint could not be read');
    expect(h.snapshot()).toEqual(expected);
    await h.close();
  });

  it('moves a state store that does not open aside, keeps it, and rebuilds every projection', async () => {
    const events = syntheticEvents({ seed: 31, sessions: 4, eventsPerSession: 20, projects: 2 });
    const expected = await cleanRun(events);
    const h = await projectionHarness(freshDir());
    await h.log.append(events);
    await (await h.runner()).catchUp();
    await h.reopen(() => writeFileSync(join(h.stateDir, 'CURRENT'), 'MANIFEST-999999\n'));
    expect(h.store.recovered?.reason).toMatch(/did not open/);
    const runner = await h.runner();
    expect(runner.status().every((s) => s.resetPending?.includes('did not open'))).toBe(true);
    await runner.catchUp();
    expect(h.snapshot()).toEqual(expected);
    expect(readdirSync(h.dir).some((name) => name.startsWith('state.unreadable-'))).toBe(true);
    await h.close();
  });

  it('treats a checkpoint of another log as absent, and rebuilds from the log it has', async () => {
    const events = syntheticEvents({ seed: 37, sessions: 5, eventsPerSession: 20, projects: 2 });
    const h = await projectionHarness(freshDir());
    await h.log.append(events);
    await (await h.runner()).catchUp();
    // Another log under the same state: what a swapped-in (or lost and recreated) log looks like.
    const other = await LevelEventLog.open(join(freshDir(), 'log'));
    await other.append(events.slice(0, 30));
    const runner = new ProjectionRunner({
      log: other, catalog: defaultCatalog(), store: h.store, projections: allProjections(h.roots), clock: harnessClock,
    });
    await runner.start();
    expect(runner.status().every((s) => s.resetPending?.startsWith('its checkpoint is of another log'))).toBe(true);
    await runner.catchUp();
    expect(runner.status().every((s) => s.seq === 30)).toBe(true);
    // Views are what the new log says; memory files are rewritten, never deleted (invariant 6).
    const expected = await cleanRun(events.slice(0, 30));
    const now = h.snapshot();
    for (const [path, content] of Object.entries(expected)) expect(now[path], path).toBe(content);
    expect(Object.keys(now).filter((path) => !(path in expected) && !path.startsWith('claude/'))).toEqual([]);
    await other.close();
    await h.close();
  });

  it('never holds a fast projector behind a slow one, live or in a rebuild', async () => {
    let open!: () => void;
    let gate = new Promise<void>((resolve) => (open = resolve));
    let slowProjection!: Projection;
    const h = await projectionHarness(freshDir(), (roots) => {
      const slow = counter(roots, 1);
      slowProjection = {
        projector: slow.projector,
        sink: { apply: async (changes, context) => (await gate, slow.sink.apply(changes, context)), reset: () => slow.sink.reset() },
      };
      return [slowProjection, ...allProjections(roots)];
    });
    const runner = await h.runner();
    const errors: unknown[] = [];
    const kick = () => runner.kick({ onCaughtUp: () => undefined, onError: (err) => errors.push(err) });
    const until = async (test: () => boolean) => {
      for (let i = 0; i < 500 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(test()).toBe(true);
    };
    await h.log.append([prompt('a', 's1', 'one'), prompt('b', 's1', 'two')]);
    kick();
    await until(() => seqs(runner).stats === 2 && seqs(runner).sessions === 2);
    await h.log.append([prompt('c', 's1', 'three')]);
    kick();
    // The counter is still stuck in its first sink write; the others have moved on twice.
    await until(() => seqs(runner).stats === 3 && seqs(runner).sessions === 3 && seqs(runner).trace === 3);
    expect(seqs(runner).counter).toBe(0);
    open();
    await runner.idle();
    await runner.catchUp();
    expect(seqs(runner)).toEqual({ counter: 3, ...everyLaneAt(3) });
    // A rebuild: each lane at its own pace, the slow one not holding the others.
    gate = new Promise<void>((resolve) => (open = resolve));
    const traceView = join(h.roots.views, 'trace', `${projectSlug('/home/dev/p')}.json`);
    const rebuilt = runner.rebuild();
    // The rebuild wiped the views; the trace lane writes its file again while the counter waits.
    await until(() => existsSync(traceView) && seqs(runner).stats === 3 && seqs(runner).sessions === 3);
    expect(seqs(runner).counter).toBe(0);
    expect(existsSync(join(h.roots.views, 'count', 's1'))).toBe(false);
    open();
    await rebuilt;
    expect(seqs(runner).counter).toBe(3);
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
    const replayDir = freshDir();
    const store = await StateStore.open(join(replayDir, 'state'), { now: () => new Date(0) });
    const replay = new ProjectionRunner({
      log: h.log,
      catalog: defaultCatalog(),
      store,
      projections: allProjections({ views: join(replayDir, 'views'), claude: join(replayDir, 'claude') }),
      clock: harnessClock,
    });
    await replay.start();
    await replay.runUntil(30);
    await store.close();
    const replayed = await projectionHarness(replayDir);
    expect(replayed.snapshot()).toEqual(await cleanRun(events.slice(0, 30)));
    expect(h.snapshot()).toEqual(live);
    expect(existsSync(join(replayDir, 'state', 'CURRENT'))).toBe(true);
    await Promise.all([h.close(), replayed.close()]);
  });
});
