import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { resolvePaths } from '../src/paths.js';
import type { Reactor } from '../src/engine/reactor.js';
import { ReactorRunner } from '../src/engine/reactor-runner.js';
import { harnessClock, projectionHarness, type Harness } from './support/projection-harness.js';

const root = mkdtempSync(join(tmpdir(), 'engram-reactors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function reactors(h: Harness, list: Reactor[], runner: Awaited<ReturnType<Harness['runner']>>) {
  return new ReactorRunner({
    log: h.log, catalog: defaultCatalog(), runner, store: h.store, paths: resolvePaths({ ENGRAM_HOME: join(h.dir, 'home'), CLAUDE_CONFIG_DIR: h.roots.claude }),
    clock: harnessClock, reactors: list,
  });
}

describe('the reactor runner', () => {
  it('gives each reactor its own cursor, kept across restarts, and each event range once', async () => {
    const h = await projectionHarness(join(root, String(++n)));
    const events = syntheticEvents({ seed: 3, sessions: 3, eventsPerSession: 10 });
    await h.log.append(events.slice(0, 20));
    const seen: Array<[number, number]> = [];
    const counting: Reactor = { name: 'counting', reads: ['sessions'], react: async (ctx) => (seen.push([ctx.from, ctx.to]), []) };
    const runner = await h.runner();
    await runner.catchUp();
    const first = reactors(h, [counting], runner);
    await first.start();
    await first.round();
    await h.log.append(events.slice(20));
    await runner.catchUp();
    const restarted = reactors(h, [counting], runner);
    await restarted.start();
    await restarted.round();
    await restarted.round();
    expect(seen).toEqual([[1, 20], [21, events.length], [events.length + 1, events.length]]);
    await h.close();
  });

  it('never runs on a projection that is behind, and never holds one reactor behind a slow one', async () => {
    const h = await projectionHarness(join(root, String(++n)));
    await h.log.append(syntheticEvents({ seed: 4, sessions: 2, eventsPerSession: 10 }));
    const runner = await h.runner();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    const slow: Reactor = { name: 'slow', react: async (ctx) => (await Promise.race([gate, new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)))]), ran.push('slow'), []) };
    const fast: Reactor = { name: 'fast', reads: ['trace'], react: async () => (ran.push('fast'), []) };
    const lanes = reactors(h, [slow, fast], runner);
    await lanes.start();
    // The trace projection has not folded anything yet: `fast` waits for it.
    lanes.kick({ onAppended: () => undefined, onError: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toEqual([]);
    await runner.catchUp();
    lanes.kick({ onAppended: () => undefined, onError: () => undefined });
    for (let i = 0; i < 100 && !ran.includes('fast'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran).toEqual(['fast']);
    expect(lanes.status().find((s) => s.name === 'slow')!.running).toBe(true);
    // Stopping cuts the slow run short; its cursor did not move, so the next worker does it again.
    lanes.abort();
    await lanes.idle();
    expect(lanes.status().find((s) => s.name === 'slow')!.cursor).toBe(0);
    release();
    await h.close();
  });
});
