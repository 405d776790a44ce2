import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import type { Envelope } from '../src/events/envelope.js';
import { cliPath, drain, dumpLog, runCli, runCommand, useTempHomes, walkFiles } from './support/temp-home.js';

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
    const traced = await runCommand('strace', ['-f', '-y', '-qq', '-o', tracePath, '-e', 'trace=write,fdatasync,fsync,unlink', process.execPath, cliPath, 'worker', '--drain'], { env: h.env });
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
    const doctor = await runCli(['doctor'], h.env);
    expect(doctor.stdout).toMatch(/✓ all \d+ projections are up to date/);
    expect(doctor.stdout).toMatch(/rebuilt from the log .* the log lost its tail/);
    const views = walkFiles(h.paths.views);
    expect((await runCli(['rebuild'], h.env)).code).toBe(0);
    expect(walkFiles(h.paths.views)).toEqual(views);
    expect(statSync(h.paths.log).isDirectory()).toBe(true);
  });
});
