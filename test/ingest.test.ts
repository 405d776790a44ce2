import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { systemClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { spoolFileName } from '../src/spool/spool-file-name.js';
import { openEngine } from '../src/composition/open-engine.js';
import { cliHere, cliPath, drain, dumpLog, runHook, useTempHomes, type ProcessResult, type TempHome } from './support/temp-home.js';
import { handHomeBack, runCliUnprivileged } from './support/unprivileged.js';
import { useWarmHookCode } from './support/warm-hook-code.js';

const home = useTempHomes();
// These tests are about many hooks at once, not a hook's first start: each home starts with the
// hooks' code cache a first hook would have left.
const warmHookCode = useWarmHookCode();

const prompt = (session: string, n: number) => ({
  session_id: session,
  transcript_path: `/tmp/${session}.jsonl`,
  cwd: `/home/dev/src/${session}`,
  hook_event_name: 'UserPromptSubmit',
  prompt: `prompt number ${n} of ${session}`,
});

function spoolFile(h: TempHome, event: Envelope, index: number): void {
  // The name a hook would give it: microseconds first, so spool order is this order.
  writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_000 + index)}-1-00000000.json`), JSON.stringify(event));
}

/** Worker processes running for this ENGRAM_HOME, from /proc. */
function workerProcesses(engramHome: string): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv.includes('worker') && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`ENGRAM_HOME=${engramHome}`);
    } catch {
      return false;
    }
  });
}

// How many hook processes each test starts. Two cores run a few hooks at a time: 64 started at
// once are already 30 times more than run. ENGRAM_TEST_INGEST_HOOKS=200 runs the burst and the
// stream with the 200 (by hand).
const BURST = Number(process.env.ENGRAM_TEST_INGEST_HOOKS ?? 64);
const STREAM = Number(process.env.ENGRAM_TEST_INGEST_HOOKS ?? 100);
// Four of the stream's sessions run side by side, each running its hooks one after the other;
// the rest of the stream lands among them, at most WINDOW hooks of it in flight at once.
const PER_SESSION = 12;
const WINDOW = 8;
const KILLS = Number(process.env.ENGRAM_TEST_INGEST_KILLS ?? 12);

// Real hook and worker processes by the dozen, on 2 shared cores: minutes, not the default minute.
describe('ingest', { timeout: 180_000 }, () => {
  it(`${BURST} hook processes started at once for 4 sessions: exactly ${BURST} events, each session in the order its hooks ran`, async () => {
    // About the spool, not recall: no worker runs, so the prompt hooks do not ask one for it.
    const h = home({ ENGRAM_RECALL_WAIT_MS: '0' });
    await warmHookCode(h, ['UserPromptSubmit']);
    const sessions = ['alpha', 'bravo', 'charlie', 'delta'];
    const results = await Promise.all(Array.from({ length: BURST }, (_, i) => runHook('UserPromptSubmit', prompt(sessions[i % 4]!, i), h.env)));
    expect(results.every((r) => r.code === 0 && r.stdout === '')).toBe(true);
    // Started in one burst, they ran in the order they landed in the spool.
    const landed = readdirSync(h.paths.spoolNew).sort().map((name) => JSON.parse(readFileSync(join(h.paths.spoolNew, name), 'utf8')).id);
    expect(landed.length).toBe(BURST);
    await drain(h.env);
    const events = await dumpLog(h.env);
    expect(events.length).toBe(BURST);
    expect(new Set(events.map((e) => e.id)).size).toBe(BURST);
    expect(events.map((e) => e.id)).toEqual(landed);
    for (const session of sessions) expect(events.filter((e) => e.session === session).length).toBe(BURST / 4);
  });

  it(`${STREAM} hooks landing while the worker ingests, four sessions of them side by side: each session keeps the order its hooks ran`, async () => {
    // About ordering, not recall: hooks that do not wait on the worker's recall keep the machine
    // free for the ones that overlap them.
    const h = home({ ENGRAM_RECALL_WAIT_MS: '0' });
    await warmHookCode(h, ['UserPromptSubmit']);
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    // Four sessions side by side, each running its hooks one after the other, and the rest of
    // the stream landing among them over four more sessions: hook k of the stream is spawned once
    // hook k - WINDOW has exited, so WINDOW of them overlap at any moment however loaded the
    // machine (it used to be spawned on a timer, which at load 20 left few pairs of one session
    // strictly one after the other), and two of one session WINDOW or more apart ran one after
    // the other by construction.
    const sideBySide = ['alpha', 'bravo', 'charlie', 'delta'];
    const streamed = ['echo', 'foxtrot', 'golf', 'hotel'];
    const streamCount = Math.max(STREAM - sideBySide.length * PER_SESSION, 0);
    interface Ran { i: number; session: string; order: number; gap: number; spawnedAt: number; exitedAt: number; result: ProcessResult }
    const hooks: Ran[] = [];
    let next = 0;
    const fire = async (session: string, order: number, gap: number) => {
      const i = next++;
      const spawnedAt = performance.now();
      const result = await runHook('UserPromptSubmit', prompt(session, i), h.env);
      hooks.push({ i, session, order, gap, spawnedAt, exitedAt: performance.now(), result });
    };
    await Promise.all([
      ...sideBySide.map(async (session) => {
        for (let n = 0; n < PER_SESSION; n++) await fire(session, n, 1);
      }),
      (async () => {
        const inFlight: Array<Promise<void>> = [];
        for (let k = 0; k < streamCount; k++) {
          if (k >= WINDOW) await inFlight[k - WINDOW];
          inFlight.push(fire(streamed[k % streamed.length]!, k, WINDOW));
        }
        await Promise.all(inFlight);
      })(),
    ]);
    expect(hooks.length).toBe(sideBySide.length * PER_SESSION + streamCount);
    expect(hooks.every((hook) => hook.result.code === 0 && hook.result.stdout === '')).toBe(true);
    await drain(h.env);
    const events = await dumpLog(h.env);
    expect(events.length).toBe(hooks.length);
    expect(new Set(events.map((e) => e.id)).size).toBe(hooks.length);
    const numberOf = (e: Record<string, any>) => Number(/number (\d+)/.exec(e.data.prompt)![1]);
    // The sessions side by side: each one's events exactly in the order its hooks ran.
    for (const session of sideBySide) {
      const fired = hooks.filter((hook) => hook.session === session).sort((a, b) => a.order - b.order).map((hook) => hook.i);
      expect(fired.length).toBe(PER_SESSION);
      expect(events.filter((e) => e.session === session).map(numberOf)).toEqual(fired);
    }
    // Every pair of one session that ran one after the other, by construction or as measured
    // (where one exited before another was spawned, it ran first), in that order in the log.
    const seqOf = new Map(events.map((e) => [numberOf(e), e.seq as number]));
    let ordered = 0;
    for (const a of hooks) {
      for (const b of hooks) {
        if (a.session !== b.session || (b.order - a.order < a.gap && a.exitedAt >= b.spawnedAt)) continue;
        ordered++;
        expect(seqOf.get(a.i)!, `hook ${a.i} ran before hook ${b.i}`).toBeLessThan(seqOf.get(b.i)!);
      }
    }
    expect(ordered).toBeGreaterThan(50);
  // The side-by-side sessions' twelve hooks one after another are its longest path: at load 28
  // each hook takes seconds, and the whole ran 134 s.
  }, 300_000);

  it(`a worker killed with SIGKILL at ${KILLS} random instants loses no event and duplicates none`, async () => {
    const h = home();
    mkdirSync(h.paths.spoolNew, { recursive: true });
    // Enough spool files a round that half the kills, aimed at a random point of the ingest, land
    // inside it (the check below); each start reads the whole log before it ingests, so the cost
    // grows with the square of this (1,500 a round read 285,000 events over the 20 starts).
    const perRound = 500;
    const events = syntheticEvents({ sessions: perRound / 5 + 2, eventsPerSession: 100, seed: 42 }).slice(0, perRound * KILLS + 100);
    let written = 0;
    const writeMore = (count: number) => {
      for (const event of events.slice(written, written + count)) spoolFile(h, event, written++);
    };
    const spoolLeft = () => readdirSync(h.paths.spoolNew).length;
    /**
     * Resolves once `waiting` spool files have gone down to `mark` (or after 30 s): told by
     * inotify at each removal, instead of listing hundreds of names every millisecond. Nothing
     * else enters spool/new during a round, so every name it reports is one removed.
     */
    const spoolShrunkTo = (mark: number, waiting: number) =>
      new Promise<void>((resolve) => {
        const gone = new Set<string>();
        const done = () => {
          clearTimeout(timer);
          watcher.close();
          resolve();
        };
        const watcher = watch(h.paths.spoolNew, (_event, name) => {
          if (name) gone.add(name.toString());
          if (waiting - gone.size <= mark) done();
        });
        const timer = setTimeout(done, 30_000);
      });
    const startWorker = () => {
      const worker = spawn(process.execPath, [cliPath, 'worker'], { env: h.env, stdio: 'ignore' });
      return { worker, exited: new Promise((resolve) => worker.on('exit', resolve)) };
    };
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let midIngest = 0;
    for (let round = 0; round < KILLS; round++) {
      writeMore(perRound);
      const waiting = spoolLeft();
      // Watched before the worker starts, so no removal goes unseen.
      const shrunk = round % 2 === 0 ? spoolShrunkTo(Math.floor(waiting * (0.1 + 0.8 * random())), waiting) : undefined;
      const { worker, exited } = startWorker();
      if (shrunk) {
        // At a random point of the ingest itself: once the spool has shrunk below a random mark.
        await shrunk;
      } else {
        // At a random instant after the start: before the log opens, during ingest or projection.
        await new Promise((resolve) => setTimeout(resolve, random() * 800));
      }
      worker.kill('SIGKILL');
      await exited;
      const left = spoolLeft();
      if (left > 0 && left < waiting) midIngest++;
    }
    // Half the kills aim inside an ingest and most must land there for this to test anything.
    expect(midIngest).toBeGreaterThanOrEqual(Math.ceil(KILLS / 2) - 2);
    writeMore(events.length - written);
    await drain(h.env);
    const log = await dumpLog(h.env);
    expect(log.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(log.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(spoolLeft()).toBe(0);
  // Longer than the default: each of the starts reads the whole, growing log before it ingests.
  }, 180_000);

  it('hooks racing to start the worker start exactly one', async () => {
    // Which hook starts the worker, not what it recalls: the hooks do not wait on its recall.
    const h = home({ ENGRAM_WORKER_AUTOSTART: '1', ENGRAM_RECALL_WAIT_MS: '0' });
    await warmHookCode(h, ['UserPromptSubmit']);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => runHook('UserPromptSubmit', prompt('race', i), h.env)));
    expect(results.every((r) => r.code === 0)).toBe(true);
    let status = '';
    for (let i = 0; i < 100 && !status.startsWith('running'); i++) {
      status = (await cliHere(['worker', 'status'], h.env)).stdout;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toMatch(/^running: pid \d+/);
    await drain(h.env);
    expect((await dumpLog(h.env)).length).toBe(30);
    // Every hook has exited, so any worker one of them spawned exists by now: still running
    // (waiting for the log), or gone after logging that it waited. No sleep needed to see it.
    if (existsSync('/proc')) expect(workerProcesses(h.paths.home).length).toBe(1);
    const lines = readFileSync(h.paths.workerLog, 'utf8').split('\n');
    expect(lines.filter((line) => line.includes(' started;')).length).toBe(1);
    expect(lines.filter((line) => line.includes('log is locked'))).toEqual([]);
  });

  it('moves a spool file that does not parse or validate to spool/rejected with its reason, and goes on', async () => {
    const h = home();
    mkdirSync(h.paths.spoolNew, { recursive: true });
    const [good1, good2] = syntheticEvents({ sessions: 1, eventsPerSession: 3 });
    spoolFile(h, good1!, 1);
    writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_002)}-1-00000000.json`), '{"half a file');
    spoolFile(h, { ...good2!, data: { prompt: 12 } } as Envelope, 3);
    writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_004)}-1-00000000.json`), 'DATABASE_PASSWORD=hunter2-very-secret\n');
    spoolFile(h, good2!, 5);
    writeFileSync(join(h.paths.spoolNew, 'stray.txt'), 'not a spool file');
    await drain(h.env);
    expect((await dumpLog(h.env)).map((e) => e.id)).toEqual([good1!.id, good2!.id]);
    const rejected = readdirSync(h.paths.spoolRejected).sort();
    expect(rejected.filter((n) => !n.endsWith('.reason')).length).toBe(4);
    const reasons = rejected.filter((n) => n.endsWith('.reason')).map((n) => readFileSync(join(h.paths.spoolRejected, n), 'utf8'));
    expect(reasons.join('')).toMatch(/not JSON: it ends before its JSON does/);
    expect(reasons.join('')).toMatch(/not JSON: an unexpected character \(38 characters\)/);
    expect(reasons.join('')).toMatch(/EVENT_INVALID/);
    expect(reasons.join('')).toMatch(/not a spool file name/);
    // A reason says where and what kind, never what the file held (JSON.parse's message quotes it).
    expect(reasons.join('')).not.toMatch(/hunter2|DATABASE|half a file/);
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.stdout).toContain('4 spool files were rejected');
  });

  it('spool files of an event type or schemaVersion this engram does not know wait in the spool, never in rejected/, and hold back nothing', async () => {
    const h = home();
    mkdirSync(h.paths.spoolNew, { recursive: true });
    const [a, b, c, d] = syntheticEvents({ sessions: 1, eventsPerSession: 4 });
    spoolFile(h, a!, 1);
    spoolFile(h, { ...b!, type: 'SomethingFromTheFuture' }, 2);
    spoolFile(h, { ...c!, schemaVersion: 99 }, 3);
    spoolFile(h, d!, 4);
    const drained = await cliHere(['worker', '--drain'], h.env);
    expect(drained.code).toBe(0);
    expect(drained.stderr).toContain('2 files left in the spool for a newer engram');
    expect((await dumpLog(h.env)).map((e) => e.id)).toEqual([a!.id, d!.id]);
    expect(readdirSync(h.paths.spoolNew).length).toBe(2);
    expect(existsSync(h.paths.spoolRejected) ? readdirSync(h.paths.spoolRejected) : []).toEqual([]);
    expect((await cliHere(['log', 'stats'], h.env)).stdout).toContain('spool: 0 pending, 0 in flight, 0 rejected, 2 waiting for a newer engram');
    expect((await cliHere(['doctor'], h.env)).stdout).toContain('2 spool files wait for a newer engram');
  });

  it('after the machine slept, takes a file named by the wall clock though its own monotonic clock stalled', async () => {
    const h = home();
    const engine = await openEngine({ paths: h.paths, clock: systemClock });
    const [event] = syntheticEvents({ sessions: 1, eventsPerSession: 1 });
    // An hour of suspend: the wall clock went on, the worker's monotonic clock did not.
    const stalledAt = performance.now() - 3_600_000;
    const stall = vi.spyOn(performance, 'now').mockImplementation(() => stalledAt);
    try {
      // Named as a hook names it, from a fresh process's reading of the wall clock, a second ago.
      writeFileSync(join(h.paths.spoolNew, spoolFileName(Date.now() * 1000 - 1_000_000, 4242)), JSON.stringify(event));
      expect(await engine.ingest()).toMatchObject({ ingested: 1, waiting: 0 });
    } finally {
      stall.mockRestore();
      await engine.close();
    }
  });

  it('a file named in the future is ingested after a bounded wait, and the drain ends', async () => {
    // The bound is spoolFutureWaitMs (2 s by default): shorter here, the same wait and the same end.
    const h = home({ ENGRAM_SPOOL_FUTURE_WAIT_MS: '300' });
    mkdirSync(h.paths.spoolNew, { recursive: true });
    const [now, ahead, after] = syntheticEvents({ sessions: 1, eventsPerSession: 3 });
    const hour = 3_600_000_000;
    writeFileSync(join(h.paths.spoolNew, spoolFileName(Date.now() * 1000 - 1_000_000, 1)), JSON.stringify(now));
    writeFileSync(join(h.paths.spoolNew, spoolFileName(Date.now() * 1000 + hour, 2)), JSON.stringify(ahead));
    const drained = await cliHere(['worker', '--drain'], h.env);
    expect(drained.code).toBe(0);
    expect(drained.stderr).toMatch(/^drained: 2 ingested/);
    expect(drained.stderr).toContain("1 file named ahead of this machine's clock taken after a short wait");
    // Files named after it by the real clock still go in, after it.
    writeFileSync(join(h.paths.spoolNew, spoolFileName(Date.now() * 1000 - 1_000_000, 3)), JSON.stringify(after));
    await drain(h.env);
    expect((await dumpLog(h.env)).map((e) => e.id)).toEqual([now!.id, ahead!.id, after!.id]);
  });

  it('a drain ends, saying why, when spool/new cannot be written; nothing is appended twice, and it finishes once fixed', async () => {
    const h = home();
    mkdirSync(h.paths.spoolNew, { recursive: true });
    mkdirSync(h.paths.spoolRejected, { recursive: true });
    const [a, b] = syntheticEvents({ sessions: 1, eventsPerSession: 2 });
    spoolFile(h, a!, 1);
    writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_002)}-1-00000000.json`), 'torn');
    spoolFile(h, b!, 3);
    chmodSync(h.paths.spoolNew, 0o555);
    const stuck = await runCliUnprivileged(['worker', '--drain'], h);
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toMatch(/^drained: 2 ingested, 0 duplicates skipped, 0 rejected/);
    expect(stuck.stderr).toContain('3 files stuck:');
    expect(stuck.stderr).toContain(`cannot remove ingested files from ${h.paths.spoolNew} (EACCES); their events are in the log`);
    expect(stuck.stderr).toContain(`cannot move bad files from ${h.paths.spoolNew} to ${h.paths.spoolRejected} (EACCES)`);
    chmodSync(h.paths.spoolNew, 0o755);
    const fixed = await runCliUnprivileged(['worker', '--drain'], h);
    expect(fixed.code).toBe(0);
    expect(fixed.stderr).toMatch(/^drained: 0 ingested, 2 duplicates skipped, 1 rejected/);
    // As the home's owner: the CLI, as it should, will not use a home another uid owns.
    handHomeBack(h);
    expect((await dumpLog(h.env)).map((e) => e.id)).toEqual([a!.id, b!.id]);
    expect(readdirSync(h.paths.spoolNew)).toEqual([]);
  });

  it('a whole event a dead hook left in spool/tmp is ingested from there, even when spool/new cannot be written', async () => {
    const h = home();
    for (const dir of [h.paths.spoolNew, h.paths.spoolTmp, h.paths.spoolRejected]) mkdirSync(dir, { recursive: true });
    const [orphan, torn] = syntheticEvents({ sessions: 1, eventsPerSession: 2 });
    const old = Date.now() * 1000 - 60_000_000;
    writeFileSync(join(h.paths.spoolTmp, spoolFileName(old, 1)), JSON.stringify(orphan));
    writeFileSync(join(h.paths.spoolTmp, spoolFileName(old + 1, 2)), JSON.stringify(torn).slice(0, 50));
    const minuteAgo = new Date(Date.now() - 60_000);
    for (const name of readdirSync(h.paths.spoolTmp)) utimesSync(join(h.paths.spoolTmp, name), minuteAgo, minuteAgo);
    chmodSync(h.paths.spoolNew, 0o555);
    const drained = await runCliUnprivileged(['worker', '--drain'], h);
    expect(drained.stderr).toMatch(/^drained: 1 ingested, 0 duplicates skipped, 1 rejected/);
    expect(drained.code).toBe(0);
    handHomeBack(h);
    expect((await dumpLog(h.env)).map((e) => e.id)).toEqual([orphan!.id]);
    expect(readdirSync(h.paths.spoolTmp)).toEqual([]);
    const reasons = readdirSync(h.paths.spoolRejected).filter((n) => n.endsWith('.reason')).map((n) => readFileSync(join(h.paths.spoolRejected, n), 'utf8'));
    expect(reasons).toEqual([expect.stringContaining('left in spool/tmp by a hook that died, and SPOOL_FILE_INVALID: not JSON')]);
  });

  it('never follows a link in the spool: the link itself is rejected, and what it points at is neither read nor quoted', async () => {
    const h = home();
    mkdirSync(h.paths.spoolNew, { recursive: true });
    const secret = join(h.root, 'passwd');
    writeFileSync(secret, 'root:x:0:0:root:/root:/bin/bash\n');
    const [event] = syntheticEvents({ sessions: 1, eventsPerSession: 1 });
    const validTarget = join(h.root, 'event.json');
    writeFileSync(validTarget, JSON.stringify(event));
    symlinkSync(secret, join(h.paths.spoolNew, `${String(1_700_000_000_000_001)}-1-00000000.json`));
    symlinkSync(validTarget, join(h.paths.spoolNew, `${String(1_700_000_000_000_002)}-1-00000000.json`));
    await drain(h.env);
    expect(await dumpLog(h.env)).toEqual([]);
    const rejected = readdirSync(h.paths.spoolRejected).sort();
    expect(rejected.filter((n) => !n.endsWith('.reason')).length).toBe(2);
    for (const name of rejected) {
      const path = join(h.paths.spoolRejected, name);
      if (name.endsWith('.reason')) {
        const reason = readFileSync(path, 'utf8');
        expect(reason).toContain('a symbolic link, not a file: links in the spool are never followed');
        expect(reason).not.toContain('root:');
      } else expect(lstatSync(path).isSymbolicLink()).toBe(true);
    }
    expect(readFileSync(secret, 'utf8')).toBe('root:x:0:0:root:/root:/bin/bash\n');
  });
});
