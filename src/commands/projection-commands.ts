import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { EngramError } from '../errors.js';
import type { EventLog } from '../log/event-log.js';
import { allProjections } from '../projections/all-projections.js';
import { describeDrain } from '../engine/describe-drain.js';
import { ProjectionRunner } from '../engine/projection-runner.js';
import { StateStore } from '../engine/state-store.js';
import { defineCommand } from './command.js';
import { spoolCounts } from './log-commands.js';
import { reconcileNow } from './reconcile-command.js';

/** `engram worker --drain`: ingest everything pending, project to the end, react; then return. */
export const drain = defineCommand({
  name: 'drain',
  access: 'write',
  args: z.object({}),
  async run(engine, _args, output) {
    // Never written over: a log found damaged takes nothing in until it is repaired.
    if (existsSync(engine.paths.logBroken)) {
      output.err(`not draining: ${readFileSync(engine.paths.logBroken, 'utf8').trim()}\n`);
      return 1;
    }
    // A drain of a long backlog runs for seconds: how far the slowest projection is, as it goes.
    const report = () => output.progress(Math.min(engine.log.head, ...engine.runner.status().map((lane) => lane.seq)), engine.log.head, 'events');
    const timer = setInterval(report, 250);
    let drained;
    try {
      drained = await engine.drain();
    } finally {
      clearInterval(timer);
    }
    report();
    const { text, code } = describeDrain(drained, engine.log.head);
    output.err(text);
    return code;
  },
});

/** `engram rebuild [--only NAME]`: drop projection state and outputs, replay the log. */
export const rebuild = defineCommand({
  name: 'rebuild',
  access: 'write',
  args: z.object({ only: z.array(z.string()).default([]) }),
  async run(engine, args, output) {
    const started = performance.now();
    if (args.only.length === 0 || args.only.includes('memories')) {
      // A memory file changed by hand since the last round is recorded first: the rebuild then writes the edit, never the memory as it was.
      const { appended } = await reconcileNow(engine, undefined);
      if (appended > 0) output.err(`recorded ${appended} changes made by hand to memory files before rebuilding\n`);
    }
    await engine.runner.rebuild({ only: args.only, onProgress: (done, total) => output.progress(done, total) });
    const names = args.only.length > 0 ? args.only : engine.runner.names;
    output.err(`rebuilt ${names.join(', ')} from ${engine.log.head} events in ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
    return 0;
  },
});

/**
 * `engram replay --until SEQ|ISO --out DIR`: the projections as they stood at that point of the
 * log, written under DIR (views/, claude/, state/). The live projections are not touched.
 */
export const replay = defineCommand({
  name: 'replay',
  // It reads the live log and writes only under DIR: the live projections stay as they are.
  access: 'read',
  args: z.object({ until: z.string().min(1), out: z.string().min(1) }),
  async run(engine, args, output) {
    const out = resolve(args.out);
    if (nonEmpty(out)) throw new EngramError('USAGE', `${out} is not empty; replay writes into a new or empty directory`);
    // DIR itself may be new; a parent that is not there is a mistyped path, not one to create.
    if (!existsSync(dirname(out))) throw new EngramError('USAGE', `${dirname(out)} does not exist; --out names a new or empty directory in an existing one`);
    const until = await resolveUntil(engine.log, args.until);
    if (/^\d+$/.test(args.until) && Number(args.until) > engine.log.head) {
      output.err(`the log ends at event ${engine.log.head}, before ${Number(args.until)}: replaying all of it\n`);
    }
    const store = await StateStore.open(join(out, 'state'), { now: () => engine.clock.now() });
    try {
      const runner = new ProjectionRunner({
        log: engine.log,
        catalog: engine.catalog,
        store,
        projections: allProjections({ views: join(out, 'views'), claude: join(out, 'claude') }),
        clock: engine.clock,
      });
      await runner.start();
      await runner.runUntil(until, (done, total) => output.progress(done, total));
    } finally {
      await store.close();
    }
    output.err(`replayed events 1..${until} of ${engine.log.head} into ${out}\n`);
    return 0;
  },
});

/** `engram worker status`, and the facts `engram doctor` reads. */
export const status = defineCommand({
  name: 'status',
  access: 'read',
  args: z.object({ json: z.boolean().default(true) }),
  async run(engine, _args, output) {
    const faults = engine.runner.status();
    // The model and the resident memory of the process that answers (the worker's when one runs).
    const rssMb = Math.round(process.memoryUsage.rss() / 1048576);
    await output.out(`${JSON.stringify({ head: engine.log.head, spool: spoolCounts(engine.paths), projectors: faults, model: engine.services.model(), rssMb }, null, 2)}\n`);
    return 0;
  },
});

/**
 * A seq (digits only) is itself; an ISO 8601 time, with date, time and zone, means every event
 * before the first one stamped later than it (the log as it stood then, taking event time as
 * arrival time). Anything else is a usage error: Date.parse would read " 50", "50.5" or "-5" as
 * years and replay nothing, without a word.
 */
export async function resolveUntil(log: EventLog, until: string): Promise<number> {
  if (/^\d+$/.test(until)) return Math.min(Number(until), log.head);
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
  const at = iso.test(until) ? Date.parse(until) : Number.NaN;
  if (Number.isNaN(at)) {
    throw new EngramError(
      'USAGE',
      `--until takes a seq (digits, e.g. 40) or an ISO 8601 time with a zone (e.g. 2026-10-01T08:05:00Z), not ${JSON.stringify(until)}`,
    );
  }
  for await (const batch of log.read()) {
    for (const event of batch) if (Date.parse(event.ts) > at) return event.seq - 1;
  }
  return log.head;
}

function nonEmpty(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}
