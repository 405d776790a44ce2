import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { wallMicros } from '../../events/event-id.js';
import { spoolFileMicros } from '../../hooks/spool-file-name.js';
import type { EngramPaths } from '../../paths.js';
import type { ProjectorStatus } from '../engine/projection-runner.js';
import { defineCommand } from './command.js';
import { spoolCounts, type SpoolCounts } from './log-commands.js';

export interface DoctorFacts {
  head: number;
  spool: SpoolCounts;
  /** Age in seconds of the oldest file waiting in spool/new, or null. */
  oldestPendingSeconds: number | null;
  rejectedFiles: Array<{ name: string; reason: string }>;
  rejectedInputs: { count: number; latest: Array<{ seq: number; ts: string; hook: string; reason: string }> };
  projectors: ProjectorStatus[];
}

/** What `engram doctor` needs from the log and the spool, gathered where the log is held. */
export const doctorFacts = defineCommand({
  name: 'doctor.facts',
  args: z.object({}),
  async run(engine, _args, output) {
    const latest: DoctorFacts['rejectedInputs']['latest'] = [];
    let count = 0;
    for await (const batch of engine.log.read({ batchSize: 2000 })) {
      for (const event of batch) {
        if (event.type !== 'HookInputRejected') continue;
        count++;
        const data = event.data as { hook?: string; reason?: string };
        latest.push({ seq: event.seq, ts: event.ts, hook: String(data.hook ?? '?'), reason: String(data.reason ?? '') });
        if (latest.length > 3) latest.shift();
      }
    }
    const facts: DoctorFacts = {
      head: engine.log.head,
      spool: spoolCounts(engine.paths),
      oldestPendingSeconds: oldestPending(engine.paths),
      rejectedFiles: rejectedFiles(engine.paths),
      rejectedInputs: { count, latest },
      projectors: engine.runner.status(),
    };
    await output.out(`${JSON.stringify(facts)}\n`);
    return 0;
  },
});

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
