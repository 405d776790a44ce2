import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Level } from 'level';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { seqKey } from '../src/log/event-codec.js';
import { isWhole } from '../src/log/log-check.js';
import { saveVerifiedMark, verifyFrom } from '../src/log/verified-mark.js';
import { waitUntil } from './support/wait-until.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import type { Envelope } from '../src/events/envelope.js';
import { cliHere, cliPath, drain, dumpLog, runCli, runCommand, runHook, tempHome, useTempHomes, walkFiles, type TempHome } from './support/temp-home.js';

const home = useTempHomes();
const root = process.getuid?.() === 0;

/** Spool files as hooks leave them, named in order after `base`. */
function spool(dir: string, events: readonly Envelope[], base: number): void {
  mkdirSync(dir, { recursive: true });
  events.forEach((event, i) => writeFileSync(join(dir, `${String(base + i)}-1-00000000.json`), JSON.stringify(event)));
}

/**
 * From an strace of a process (`-f -y -e trace=write,fdatasync,fsync,unlink`): for each
 * write-ahead file of the log, its length at its last sync before the last spool file was
 * removed. A power cut at that instant keeps exactly that much of each.
 */
function syncedAtLastUnlink(trace: string, logDir: string): { synced: Map<string, number>; unlinks: number } {
  const written = new Map<string, number>();
  const synced = new Map<string, number>();
  let atUnlink = new Map<string, number>();
  let unlinks = 0;
  for (const line of trace.split('\n')) {
    const write = /\bwrite\(\d+<([^>]+\.log)>, .*\) = (\d+)$/.exec(line);
    if (write && write[1]!.startsWith(logDir)) {
      written.set(write[1]!, (written.get(write[1]!) ?? 0) + Number(write[2]));
      continue;
    }
    const sync = /\bf(?:data)?sync\(\d+<([^>]+\.log)>\) = 0/.exec(line);
    if (sync && sync[1]!.startsWith(logDir)) {
      synced.set(sync[1]!, written.get(sync[1]!) ?? 0);
      continue;
    }
    if (/\bunlink\("[^"]*\/spool\/new\/[^"]+"\) = 0/.test(line)) {
      unlinks++;
      atUnlink = new Map([...written.keys()].map((path) => [path, synced.get(path) ?? 0]));
    }
  }
  return { synced: atUnlink, unlinks };
}

describe('durable before deleted', () => {
  it.skipIf(!root)('loses no event when the write-ahead file is cut back to its last sync before the spool files went (strace)', async () => {
    const h = home();
    const events = syntheticEvents({ sessions: 6, eventsPerSession: 50, seed: 3 });
    // Two rounds with files arriving between them: the second's WAL writes follow the first's.
    spool(h.paths.spoolNew, events.slice(0, 150), 1_700_000_000_000_000);
    await drain(h.env);
    spool(h.paths.spoolNew, events.slice(150), 1_700_000_100_000_000);
    const tracePath = join(h.root, 'trace');
    const traced = await runCommand('strace', ['-f', '--seccomp-bpf', '-y', '-qq', '-o', tracePath, '-e', 'trace=write,fdatasync,fsync,unlink', process.execPath, cliPath, 'worker', '--drain'], { env: h.env });
    expect(traced.code, traced.stderr).toBe(0);
    expect(readdirSync(h.paths.spoolNew)).toEqual([]);
    const { synced, unlinks } = syncedAtLastUnlink(readFileSync(tracePath, 'utf8'), h.paths.log);
    expect(unlinks).toBe(150);
    expect(synced.size).toBeGreaterThan(0);
    // The power cut: every write-ahead file keeps only what was synced when the last spool file went.
    for (const [path, length] of synced) truncateSync(path, length);
    const ids = new Set((await dumpLog(h.env)).map((event) => event.id));
    expect(events.filter((event) => !ids.has(event.id))).toEqual([]);
  });

  it('skips the seqs of a lost tail, records the loss, and rebuilds the projections that were ahead', async () => {
    const h = home();
    const events = syntheticEvents({ sessions: 6, eventsPerSession: 40, seed: 4 });
    spool(h.paths.spoolNew, events.slice(0, 100), 1_700_000_000_000_000);
    await drain(h.env);
    const before = await dumpLog(h.env);
    // What a disk that lies about its syncs leaves after a power cut: the log as it was, the
    // projections (another database) as they were later.
    const kept = join(h.root, 'log-then');
    cpSync(h.paths.log, kept, { recursive: true });
    spool(h.paths.spoolNew, events.slice(100, 200), 1_700_000_100_000_000);
    await drain(h.env);
    const lostHead = Math.max(...(await dumpLog(h.env)).map((event) => event.seq));
    rmSync(h.paths.log, { recursive: true });
    renameSync(kept, h.paths.log);

    spool(h.paths.spoolNew, events.slice(200), 1_700_000_200_000_000);
    await drain(h.env);
    const after = await dumpLog(h.env);
    const repaired = after.filter((event) => event.type === 'LogRepaired');
    expect(repaired).toHaveLength(1);
    const head = before.at(-1)!.seq;
    expect(repaired[0]!.data).toMatchObject({ lostFrom: head + 1, lostTo: lostHead, kept: head, cause: 'tail-lost' });
    expect(repaired[0]!.seq).toBe(lostHead + 1);
    // No seq handed out twice: every event after the loss is numbered past what was lost.
    const later = after.filter((event) => event.seq > head);
    expect(later.every((event) => event.seq > lostHead)).toBe(true);
    expect(new Set(after.map((event) => event.seq)).size).toBe(after.length);
    expect(after.some((event) => event.id === events.at(-1)!.id)).toBe(true);
    // The projections were rebuilt from what the log holds: a full rebuild changes nothing.
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.stdout).toMatch(/✓ all \d+ projections are up to date/);
    expect(doctor.stdout).toMatch(/rebuilt from the log .* the log lost its tail/);
    const views = walkFiles(h.paths.views);
    expect((await cliHere(['rebuild'], h.env)).code).toBe(0);
    expect(walkFiles(h.paths.views)).toEqual(views);
    expect(statSync(h.paths.log).isDirectory()).toBe(true);
  // Three drains, a doctor and a rebuild: past the default minute on a loaded machine.
  }, 180_000);
});

/**
 * A log of many events, closed and compacted into several table (.ldb) files: made once for the
 * file (40,000 events appended and compacted cost seconds) and copied into each test's home.
 */
async function bigLog(dir: string): Promise<void> {
  bigLogMade ??= (async () => {
    const made = mkdtempSync(join(tmpdir(), 'engram-big-log-'));
    await makeBigLog(join(made, 'log'));
    return join(made, 'log');
  })();
  cpSync(await bigLogMade, dir, { recursive: true });
}

let bigLogMade: Promise<string> | undefined;
afterAll(async () => {
  if (bigLogMade) rmSync(join(await bigLogMade, '..'), { recursive: true, force: true });
});

async function makeBigLog(dir: string): Promise<void> {
  const log = await LevelEventLog.open(dir);
  const events = syntheticEvents({ sessions: 400, eventsPerSession: 100, seed: 5 });
  for (let i = 0; i < events.length; i += 2000) await log.append(events.slice(i, i + 2000));
  await log.close();
  const db = new Level(dir);
  await db.open();
  await (db as unknown as { compactRange(a: string, b: string): Promise<void> }).compactRange('\u0000', '\uffff');
  await db.close();
}

/** 4 KB of random bytes over the middle of the log's largest table file. */
function damageMiddle(dir: string): void {
  const tables = readdirSync(dir).filter((name) => name.endsWith('.ldb')).map((name) => join(dir, name));
  expect(tables.length).toBeGreaterThan(1);
  const largest = tables.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const fd = openSync(largest, 'r+');
  writeSync(fd, randomBytes(4096), 0, 4096, Math.floor(statSync(largest).size / 2));
  closeSync(fd);
}

/**
 * Which seqs LevelDB itself gives back: the oracle for "readable". An iterator reads the log in
 * order (40,000 gets one at a time cost seconds); each seq it did not give back, stepping over a
 * block it could not read or stopping there, is asked for with a get of its own.
 */
async function readableSeqs(dir: string, head: number): Promise<Map<number, string>> {
  const db = new Level<string, Uint8Array>(dir, { valueEncoding: 'view' });
  await db.open();
  const { EventCodec } = await import('../src/log/event-codec.js');
  const codec = new EventCodec();
  const found = new Map<number, string>();
  const take = (seq: number, value: Uint8Array | undefined) => {
    try {
      if (value !== undefined) found.set(seq, codec.decode(seq, value).id);
    } catch {
      // bytes that do not decode: not readable
    }
  };
  const getOne = async (seq: number) => {
    try {
      take(seq, await db.get(`e:${seqKey(seq)}`));
    } catch {
      // in a damaged block
    }
  };
  let seq = 1;
  while (seq <= head) {
    try {
      for await (const [key, value] of db.iterator({ gte: `e:${seqKey(seq)}`, lte: `e:${seqKey(head)}` })) {
        const at = Number(key.slice(2));
        for (; seq < at; seq++) await getOne(seq);
        take(at, value);
        seq = at + 1;
      }
      for (; seq <= head; seq++) await getOne(seq);
    } catch {
      // The iterator stopped in a damaged block: this seq alone, then on from the next.
      await getOne(seq);
      seq++;
    }
  }
  await db.close();
  return found;
}

describe('a damaged log', () => {
  it('is reported by doctor before any rebuild, is not written over, and repair keeps every readable event', async () => {
    const h = home();
    mkdirSync(h.paths.home, { recursive: true });
    await bigLog(h.paths.log);
    damageMiddle(h.paths.log);

    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/✗ the log is damaged: seqs \d+–\d+ cannot be read .*run `engram log repair`/);
    const verify = await cliHere(['log', 'verify', '--json'], h.env);
    expect(verify.code).toBe(1);
    const check = JSON.parse(verify.stdout) as { readable: number; head: number; damaged: Array<{ from: number; to: number }> };
    expect(check.damaged.length).toBeGreaterThan(0);

    // A worker finds it too, says so, and takes nothing in: the hook's file waits in the spool.
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    expect(await waitUntil(() => existsSync(h.paths.logBroken))).toBe(true);
    expect(readFileSync(h.paths.workerLog, 'utf8')).toMatch(/the log is damaged: seqs .* ingest stopped/);
    const waiting = syntheticEvents({ sessions: 1, eventsPerSession: 1, seed: 99 })[0]!;
    spool(h.paths.spoolNew, [waiting], 1_800_000_000_000_000);
    expect((await cliHere(['worker', 'stop'], h.env)).code).toBe(0);
    expect(readdirSync(h.paths.spoolNew)).toHaveLength(1);
    expect((await cliHere(['worker', '--drain'], h.env)).code).toBe(1);

    const repair = await cliHere(['log', 'repair'], h.env);
    expect(repair.code, repair.stderr).toBe(0);
    expect(existsSync(h.paths.logBroken)).toBe(false);
    const old = readdirSync(h.paths.home).find((name) => name.startsWith('log.damaged-'));
    expect(old).toBeDefined();
    const readable = await readableSeqs(join(h.paths.home, old!), check.head);
    expect(readable.size).toBe(check.readable);
    expect((await cliHere(['log', 'verify'], h.env)).code).toBe(0);
    await drain(h.env);
    const after = await dumpLog(h.env);
    const bySeq = new Map(after.map((event) => [event.seq, event]));
    for (const [seq, id] of readable) expect(bySeq.get(seq)?.id).toBe(id);
    const repaired = after.filter((event) => event.type === 'LogRepaired');
    expect(repaired.map((event) => [event.data.lostFrom, event.data.lostTo])).toEqual(check.damaged.map((range) => [range.from, range.to]));
    expect(repaired[0]!.data.kept).toBe(check.readable);
    // The spooled event came in after, past every seq the old log used.
    expect(after.find((event) => event.id === waiting.id)!.seq).toBeGreaterThan(check.head);
  }, 300_000);
});

describe('a worker start', () => {
  it('reads back only what came since an earlier worker read the log', async () => {
    const h = home();
    mkdirSync(h.paths.home, { recursive: true });
    const log = await LevelEventLog.open(h.paths.log);
    await log.append(syntheticEvents({ sessions: 20, eventsPerSession: 20, seed: 6 }));
    await log.close();
    const startedWith = async (): Promise<string> => {
      const before = existsSync(h.paths.workerLog) ? readFileSync(h.paths.workerLog, 'utf8').length : 0;
      expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
      let line = '';
      expect(await waitUntil(() => {
        line = (existsSync(h.paths.workerLog) ? readFileSync(h.paths.workerLog, 'utf8').slice(before) : '').match(/read the log back from seq \d+ to \d+/)?.[0] ?? '';
        return line !== '';
      })).toBe(true);
      expect((await cliHere(['worker', 'stop'], h.env)).code).toBe(0);
      return line;
    };
    const first = await startedWith();
    expect(first).toMatch(/from seq 1 to /);
    const head = Number(first.match(/to (\d+)/)![1]);
    expect(head).toBeGreaterThan(300);
    // The second start reads back only what came after the first's check, not the ~400 before.
    const second = await startedWith();
    expect(Number(second.match(/from seq (\d+)/)![1])).toBeGreaterThan(head);
  }, 300_000);

  it('reads the whole log again when a table the mark saw was changed since, and finds the damage', async () => {
    const h = home();
    mkdirSync(h.paths.home, { recursive: true });
    await bigLog(h.paths.log);
    const log = await LevelEventLog.open(h.paths.log);
    try {
      expect(await verifyFrom(log, h.paths.log)).toBe(1);
      expect(isWhole(await log.check())).toBe(true);
      await saveVerifiedMark(log, h.paths.log, log.head);
      expect(await verifyFrom(log, h.paths.log)).toBe(log.head + 1);
    } finally {
      await log.close();
    }
    damageMiddle(h.paths.log);
    const reopened = await LevelEventLog.open(h.paths.log);
    try {
      expect(await verifyFrom(reopened, h.paths.log)).toBe(1);
      expect(isWhole(await reopened.check())).toBe(false);
    } finally {
      await reopened.close();
    }
  }, 300_000);
});

describe('a log that will not open', () => {
  it('is said in worker.log and by doctor, the prompt hook does not claim a save, and repair brings it back', async () => {
    const h = home();
    const events = syntheticEvents({ sessions: 2, eventsPerSession: 25, seed: 8 });
    spool(h.paths.spoolNew, events, 1_700_000_000_000_000);
    await drain(h.env);
    // A garbled CURRENT: LevelDB no longer knows which manifest describes the log.
    writeFileSync(join(h.paths.log, 'CURRENT'), randomBytes(40));

    // As a hook starts it: the start lock taken first, the worker removes it whatever happens.
    writeFileSync(h.paths.startLock, '');
    const worker = await runCli(['worker'], h.env);
    expect(worker.code).toBe(1);
    expect(existsSync(h.paths.startLock)).toBe(false);
    expect(readFileSync(h.paths.workerLog, 'utf8')).toMatch(/the log does not open .*run `engram log repair`/);
    expect(existsSync(h.paths.logBroken)).toBe(true);

    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/✗ the log does not open .*`engram log repair`/);
    expect(doctor.stdout).toMatch(/✗ no worker is running, and none will take hook events in until the log is repaired/);
    expect(doctor.stdout).not.toMatch(/the next hook starts one/);

    const prompt = { session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/src/app', hook_event_name: 'UserPromptSubmit', prompt: 'No, I told you to use pnpm, not npm!' };
    const hook = await runHook('UserPromptSubmit', prompt, h.env);
    expect(hook.code).toBe(0);
    expect(hook.stdout).toMatch(/not yet saved: engram's log needs repair/);
    expect(hook.stdout).not.toMatch(/saved to memory/);

    const repair = await cliHere(['log', 'repair'], h.env);
    expect(repair.code, repair.stderr).toBe(0);
    expect(repair.stdout).toMatch(/LevelDB salvaged it first/);
    expect(existsSync(h.paths.logBroken)).toBe(false);
    await drain(h.env);
    const log = await dumpLog(h.env);
    const ids = new Set(log.map((event) => event.id));
    expect(events.filter((event) => !ids.has(event.id))).toEqual([]);
    expect(log.some((event) => event.type === 'PromptSubmitted')).toBe(true);
  }, 300_000);
});

/** Compacts a LevelDB directory (closed) into table files, then writes 4 KB of random bytes over the middle of its largest one. */
async function compactAndDamage(dir: string): Promise<void> {
  const db = new Level(dir);
  await db.open();
  await (db as unknown as { compactRange(a: string, b: string): Promise<void> }).compactRange('\u0000', '\uffff');
  await db.close();
  const tables = readdirSync(dir).filter((name) => name.endsWith('.ldb')).map((name) => join(dir, name));
  const largest = tables.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const size = statSync(largest).size;
  const fd = openSync(largest, 'r+');
  writeSync(fd, randomBytes(Math.min(4096, Math.floor(size / 2))), 0, Math.min(4096, Math.floor(size / 2)), Math.floor(size / 4));
  closeSync(fd);
}

describe('rebuild, aside then swapped', () => {
  // One drained home for the two tests that damage it: the state first (healed by a rebuild),
  // then the log (a rebuild refuses it). Either test alone makes it too.
  let drained: Promise<TempHome> | undefined;
  const drainedHome = () =>
    (drained ??= (async () => {
      const h = tempHome();
      spool(h.paths.spoolNew, syntheticEvents({ sessions: 10, eventsPerSession: 60, seed: 12 }), 1_700_000_000_000_000);
      await drain(h.env);
      return h;
    })());
  afterAll(async () => {
    if (drained) await (await drained).cleanup();
  });

  it('heals a projection state that cannot be read whole with the command doctor names', async () => {
    const h = await drainedHome();
    const views = walkFiles(h.paths.views);
    await compactAndDamage(h.paths.state);
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.code).toBe(1);
    const named = /cannot be read whole \(.*\): run `(engram rebuild)`/.exec(doctor.stdout);
    expect(named, doctor.stdout).not.toBeNull();
    const rebuild = await cliHere(named![1]!.split(' ').slice(1), h.env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    const after = await cliHere(['doctor'], h.env);
    expect(after.stdout).toMatch(/✓ all \d+ projections are up to date/);
    expect(after.stdout).not.toMatch(/cannot be read whole/);
    expect(walkFiles(h.paths.views)).toEqual(views);
    // The swapped-in state's records name the files where they now are: nothing is "gone" or "foreign".
    expect(after.stdout).not.toMatch(/are gone|not written by engram/);
    await drain(h.env);
  }, 300_000);

  it('leaves the last good state and views in place when it fails on a damaged log', async () => {
    const h = await drainedHome();
    const views = walkFiles(h.paths.views);
    expect(Object.keys(views).length).toBeGreaterThan(0);
    await compactAndDamage(h.paths.log);
    const rebuild = await cliHere(['rebuild'], h.env);
    expect(rebuild.code).toBe(1);
    expect(rebuild.stderr).toMatch(/the log is damaged: .*nothing was rebuilt/);
    expect(walkFiles(h.paths.views)).toEqual(views);
    expect(readdirSync(h.paths.home).filter((name) => name.startsWith('rebuild.'))).toEqual([]);
  }, 300_000);

  it.skipIf(!root)('writes the memory directories only once the new state is complete: killed before the swap, they are as they were', async () => {
    const h = home();
    // Sessions with corrections in them: memory files and MEMORY.md beside the stats files.
    const events = syntheticEvents({ sessions: 6, eventsPerSession: 30, projects: 2, seed: 14 });
    const corrections = ['no, use pnpm here, not npm', 'this repo uses vitest, not jest', 'from now on always run the linter before you commit'];
    let n = 0;
    for (const [i, event] of events.entries()) {
      if (event.type === 'PromptSubmitted' && i % 7 === 1 && n < corrections.length) events[i] = { ...event, data: { prompt: corrections[n]!, chars: corrections[n++]!.length, truncated: false } };
    }
    spool(h.paths.spoolNew, events, 1_700_000_000_000_000);
    await drain(h.env);
    const projects = join(h.paths.claude, 'projects');
    const written = walkFiles(projects);
    const stats = Object.keys(written).filter((path) => path.endsWith('/auto-stats.md'));
    expect(stats.length).toBeGreaterThan(0);
    expect(Object.keys(written).some((path) => /\/memory\/(?!auto-)[^/]+\.md$/.test(path) && !path.endsWith('MEMORY.md'))).toBe(true);
    // A file of engram's gone from a memory directory: a whole rebuild writes it again, but only
    // once its new state is complete.
    rmSync(join(projects, '..', stats[0]!));
    const before = walkFiles(projects);
    // Killed at the swap (the first rename of state/): the new state and views are complete, nothing swapped yet.
    const renames = 'rename,renameat,renameat2';
    // No --seccomp-bpf here: with it, strace 6.1 never injects the signal (its delays it does).
    const killed = await runCommand('strace', ['-f', '-qq', '-o', '/dev/null', '-P', h.paths.state, '-e', `trace=${renames}`, '-e', `inject=${renames}:signal=SIGKILL:when=1`, process.execPath, cliPath, 'rebuild'], { env: h.env });
    expect(killed.signal === 'SIGKILL' || killed.code === 137, `${killed.code} ${killed.signal} ${killed.stderr}`).toBe(true);
    expect(walkFiles(projects)).toEqual(before);
    expect(readdirSync(h.paths.home).filter((name) => name.startsWith('rebuild.')).length).toBeGreaterThan(0);
    // The next rebuild completes and writes it, through the ownership rules: nothing left failing,
    // and nothing left of the rebuild that died.
    const rebuild = await cliHere(['rebuild'], h.env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    expect(readdirSync(h.paths.home).filter((name) => name.startsWith('rebuild.'))).toEqual([]);
    expect(walkFiles(projects)).toEqual(written);
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.stdout).not.toMatch(/could not write the files|changed by someone/);
  }, 300_000);
});
