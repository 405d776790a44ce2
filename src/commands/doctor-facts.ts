import { existsSync, readdirSync, readFileSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { wallMicros } from '../events/event-id.js';
import { spoolFileMicros } from '../spool/spool-file-name.js';
import type { EngramPaths } from '../paths.js';
import { parseLostMarker } from '../spool/lost-marker.js';
import { lostWritesKey, type LostWritesRow } from '../projections/lost-writes.js';
import type { ProjectorStatus } from '../engine/projection-runner.js';
import { FAILED, PENDING, type FailedSessions } from '../projections/distill/distill-queue.js';
import type { SettingsReport } from '../config/effective-settings.js';
import { defineCommand } from './command.js';
import { eventCounts } from './event-counts.js';
import { spoolCounts, type SpoolCounts } from './log-commands.js';
import { isWhole, type LogCheck } from '../log/log-check.js';

export interface DoctorFacts {
  head: number;
  spool: SpoolCounts;
  /** Age in seconds of the oldest file waiting in spool/new, or null. */
  oldestPendingSeconds: number | null;
  rejectedFiles: Array<{ name: string; reason: string }>;
  rejectedInputs: { count: number; latest: Array<{ seq: number; ts: string; hook: string; reason: string }> };
  projectors: ProjectorStatus[];
  /** Per projection, files it wrote that are gone, and files it left alone as someone else's. */
  outputs: Array<{ projector: string; missing: string[]; edited: string[]; foreign: string[] }>;
  /** Sessions waiting for the distiller, and the latest it gave up on. */
  distill: { pending: number; failed: FailedSessions['latest'] };
  /** Hook events known lost (HookWritesFailed, summed), or null when none ever was. */
  lost: LostWritesRow | null;
  /** Markers of lost hook events the worker has not yet counted (spool/lost). */
  lostPending: number;
  /** Bytes free for an unprivileged writer on ENGRAM_HOME's file system, or null when unknown. */
  freeBytes: number | null;
  /** The settings of the process that answered (the worker's when one runs). */
  settings: SettingsReport | null;
  /** When asked for (doctor with no worker running, whose own check covers it): the log read whole. */
  logCheck?: LogCheck;
  /** Why the projection state (`state/`) cannot be read whole, when it cannot. */
  stateDamage?: string;
}

/** What `engram doctor` needs from the log and the spool, gathered where the log is held. */
export const doctorFacts = defineCommand({
  name: 'doctor.facts',
  access: 'read',
  args: z.object({ verify: z.boolean().default(false) }),
  async run(engine, args, output) {
    // First, before anything reads the log: a damaged log is what doctor must say above all.
    let logCheck = args.verify ? await engine.log.check() : undefined;
    // A state that cannot be read whole: say so, and read nothing more from it.
    const stateDamage = await engine.stateDamage();
    if (stateDamage !== undefined) {
      const facts: DoctorFacts = {
        ...(logCheck ? { logCheck } : {}),
        stateDamage,
        head: engine.log.head,
        spool: spoolCounts(engine.paths),
        oldestPendingSeconds: oldestPending(engine.paths),
        rejectedFiles: rejectedFiles(engine.paths),
        rejectedInputs: { count: 0, latest: [] },
        projectors: [],
        outputs: [],
        distill: { pending: 0, failed: [] },
        lost: null,
        lostPending: lostPending(engine.paths),
        freeBytes: freeBytes(engine.paths),
        settings: engine.services.settings ?? null,
      };
      await output.out(`${JSON.stringify(facts)}\n`);
      return 0;
    }
    let counts: Awaited<ReturnType<typeof eventCounts>>;
    try {
      counts = await eventCounts(engine);
    } catch (err) {
      // The events the counts projection has not folded yet could not be read: say where.
      logCheck ??= await engine.log.check();
      if (isWhole(logCheck)) throw err;
      counts = { total: 0, byType: {}, rejectedInputs: [] };
    }
    const outputs: DoctorFacts['outputs'] = [];
    for (const name of engine.runner.names) {
      const found = { projector: name, missing: [] as string[], edited: [] as string[], foreign: [] as string[] };
      for (const [path, record] of await engine.runner.outputsOf(name)) {
        if (record.state === 'edited') found.edited.push(path);
        else if (record.state === 'foreign') found.foreign.push(path);
        else if (!existsSync(path)) found.missing.push(path);
      }
      if (found.missing.length + found.edited.length + found.foreign.length > 0) outputs.push(found);
    }
    const facts: DoctorFacts = {
      ...(logCheck ? { logCheck } : {}),
      head: engine.log.head,
      spool: spoolCounts(engine.paths),
      oldestPendingSeconds: oldestPending(engine.paths),
      rejectedFiles: rejectedFiles(engine.paths),
      rejectedInputs: { count: counts.byType.HookInputRejected ?? 0, latest: [...counts.rejectedInputs] },
      projectors: engine.runner.status(),
      outputs,
      distill: {
        pending: await countOf(engine.runner.rowsOf('distill').entries(PENDING)),
        failed: [...(((await engine.runner.rowsOf('distill').get(FAILED)) as FailedSessions | undefined)?.latest ?? [])],
      },
      lost: ((await engine.runner.rowsOf('lost-writes').get(lostWritesKey)) as LostWritesRow | undefined) ?? null,
      lostPending: lostPending(engine.paths),
      freeBytes: freeBytes(engine.paths),
      settings: engine.services.settings ?? null,
    };
    await output.out(`${JSON.stringify(facts)}\n`);
    return 0;
  },
});

async function countOf(entries: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of entries) n++;
  return n;
}

/** Markers not yet counted, claimed batches included (record-lost-writes.ts). */
function lostPending(paths: EngramPaths): number {
  let n = 0;
  try {
    for (const entry of readdirSync(paths.spoolLost, { withFileTypes: true })) {
      if (entry.isDirectory()) n += readdirSync(join(paths.spoolLost, entry.name)).filter((name) => parseLostMarker(name)).length;
      else if (parseLostMarker(entry.name)) n++;
    }
  } catch {
    // no spool/lost: nothing was lost
  }
  return n;
}

function freeBytes(paths: EngramPaths): number | null {
  try {
    const fs = statfsSync(paths.home);
    return fs.bavail * fs.bsize;
  } catch {
    return null;
  }
}

function oldestPending(paths: EngramPaths): number | null {
  try {
    const first = readdirSync(paths.spoolNew).sort().map(spoolFileMicros).find((micros) => micros !== undefined);
    if (first === undefined) return null;
    return Math.max(0, Math.round((wallMicros() - first) / 1e6));
  } catch {
    return null;
  }
}

function rejectedFiles(paths: EngramPaths): Array<{ name: string; reason: string }> {
  let names: string[];
  try {
    names = readdirSync(paths.spoolRejected).filter((n) => !n.endsWith('.reason')).sort();
  } catch {
    return [];
  }
  return names.slice(-5).map((name) => {
    let reason = 'no reason recorded';
    try {
      reason = readFileSync(join(paths.spoolRejected, `${name}.reason`), 'utf8').trim();
    } catch {
      // moved before its reason could be written, or the reason was removed by hand
    }
    return { name, reason };
  });
}
