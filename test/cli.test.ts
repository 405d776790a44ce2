import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { runCli, tempHome, type TempHome, walkFiles } from './support/temp-home.js';

const homes: TempHome[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await home.cleanup();
});

function seeded(): TempHome {
  const h = tempHome();
  homes.push(h);
  mkdirSync(h.paths.spoolNew, { recursive: true });
  syntheticEvents({ sessions: 5, eventsPerSession: 30, projects: 2, seed: 9 }).forEach((event, i) =>
    writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_000 + i)}-1-00000000.json`), JSON.stringify(event)),
  );
  return h;
}

describe('the CLI', () => {
  it('answers the same with and without a running worker', async () => {
    const h = seeded();
    expect((await runCli(['worker', '--drain'], h.env)).code).toBe(0);
    const commands = [['log', 'dump'], ['log', 'stats', '--json'], ['migrate', '--dry-run']];
    const alone = await Promise.all(commands.map((args) => runCli(args, h.env)));
    expect((await runCli(['worker', '--detach'], h.env)).stdout).toMatch(/^started: pid \d+/);
    const through = await Promise.all(commands.map((args) => runCli(args, h.env)));
    expect(through.map((r) => [r.code, r.stdout])).toEqual(alone.map((r) => [r.code, r.stdout]));
    expect(alone[0]!.stdout.trim().split('\n').length).toBe(150);
    // --drain with a worker running waits for that worker to catch up instead of failing.
    expect((await runCli(['worker', '--drain'], h.env)).code).toBe(0);
    expect((await runCli(['worker', 'stop'], h.env)).stdout).toMatch(/^stopped worker/);
    expect((await runCli(['worker', 'status'], h.env)).stdout).toMatch(/^not running/);
  });

  it('rebuilds to the same bytes, with or without a worker, and replays a prefix elsewhere', async () => {
    const h = seeded();
    await runCli(['worker', '--drain'], h.env);
    const before = walkFiles(h.paths.views, h.paths.claude);
    expect(Object.keys(before).length).toBeGreaterThan(5);
    expect((await runCli(['rebuild'], h.env)).code).toBe(0);
    expect(walkFiles(h.paths.views, h.paths.claude)).toEqual(before);
    await runCli(['worker', '--detach'], h.env);
    const only = await runCli(['rebuild', '--only', 'stats'], h.env);
    expect(only.stderr).toMatch(/^rebuilt stats from 150 events/);
    expect(walkFiles(h.paths.views, h.paths.claude)).toEqual(before);
    const out = join(h.root, 'replay');
    const replay = await runCli(['replay', '--until', '40', '--out', out], h.env);
    expect(replay.stderr).toContain('replayed events 1..40 of 150');
    const replayed = walkFiles(join(out, 'views'), join(out, 'claude'));
    expect(Object.keys(replayed).length).toBeGreaterThan(0);
    expect(replayed).not.toEqual(before);
    expect(walkFiles(h.paths.views, h.paths.claude)).toEqual(before);
    expect((await runCli(['replay', '--until', '40', '--out', out], h.env)).code).toBe(2);
    const byTime = await runCli(['replay', '--until', '2026-10-01T08:05:00Z', '--out', join(h.root, 'early')], h.env);
    expect(byTime.stderr).toMatch(/replayed events 1\.\.\d+ of 150/);
  });

  it('says plainly what is wrong', async () => {
    const h = seeded();
    const doctor = await runCli(['doctor'], h.env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('150 hook events wait in the spool');
    expect(doctor.stdout).toContain("engram's hooks are not in");
    await runCli(['worker', '--drain'], h.env);
    await runCli(['install'], h.env);
    const healthy = await runCli(['doctor'], h.env);
    expect(healthy.stdout).toContain('all 3 projections are up to date');
    expect(healthy.stdout).toContain('hooks are installed in');
    expect(healthy.code).toBe(0);
  });

  it('rejects unknown commands and missing arguments with exit 2 and a usage line', async () => {
    const h = tempHome();
    homes.push(h);
    for (const args of [['frobnicate'], ['replay', '--until', '3'], ['log', 'shred']]) {
      const result = await runCli(args, h.env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^engram: USAGE: /);
    }
  });
});
