import { z } from 'zod';
import { backfillId } from '../backfill/backfill-id.js';
import { renderBackfillReport } from '../backfill/backfill-tally.js';
import { runBackfill } from '../backfill/run-backfill.js';
import { EngramError } from '../errors.js';
import { DistillSkipped } from '../events/distill-events.js';
import type { Envelope } from '../events/envelope.js';
import { PENDING, sessionKey, type DistillSession } from '../projections/distill/distill-queue.js';
import { liveSessionKey, type LiveSession } from '../projections/live-sessions.js';
import type { Engine } from '../engine/engine.js';
import { defineCommand } from './command.js';

/**
 * `engram backfill [--since DATE] [--project PATH] [--dry-run] [--no-distill]`: Claude Code's past
 * sessions, from its transcripts and history.jsonl, into the log as the events its hooks would
 * have written (see src/backfill/). It ingests the spool first, so a session the hooks captured
 * live is known as such. The projections then take the sessions in, and the distiller, unless
 * `--no-distill` marks them done. Exit 1 when a file could not be read (the rest was).
 */
export const backfillCommand = defineCommand({
  name: 'backfill',
  access: 'write',
  args: z.object({
    since: z.string().optional(),
    project: z.string().min(1).optional(),
    dryRun: z.boolean().default(false),
    distill: z.boolean().default(true),
  }),
  async run(engine, args, output) {
    const since = args.since === undefined ? undefined : new Date(args.since);
    if (since !== undefined && Number.isNaN(since.getTime())) throw new EngramError('USAGE', `--since takes a date or an ISO time, not ${JSON.stringify(args.since)}`);
    await engine.ingest();
    await engine.runner.catchUp();
    const live = engine.runner.rowsOf('live-sessions');
    const tally = await runBackfill(
      { claudeDir: engine.paths.claude, now: engine.clock.now(), since, project: args.project, dryRun: args.dryRun, progress: (done, total) => output.progress(done, total, 'bytes') },
      {
        async append(events) {
          for (const event of events) engine.catalog.read(event);
          return (await engine.log.append(events)).appended.map((event) => event.id);
        },
        has: (ids) => engine.log.has(ids),
        liveSince: async (session) => ((await live.get(liveSessionKey(session))) as LiveSession | undefined)?.firstAt,
      },
    );
    let distillLine = '';
    if (!args.dryRun) {
      await engine.runner.catchUp();
      const waiting = await backfilledWaiting(engine);
      if (args.distill) {
        distillLine = `  distiller: ${waiting.length} backfilled sessions wait for it; the worker takes them oldest first (\`engram worker --drain\` runs it now)\n`;
      } else {
        // Marked done as the distiller marks a trivial session: recorded, so a rebuild agrees. Every
        // backfilled session that waits, not only this run's: a run killed before this point left its
        // sessions waiting, and the run that completes it reads their files no more.
        const skipped: Envelope[] = waiting.map((session) => ({
          id: backfillId('no-distill', session.session, session.lastSeq),
          type: DistillSkipped.type,
          schemaVersion: DistillSkipped.schemaVersion,
          ts: engine.clock.now().toISOString(),
          session: session.session,
          project: session.project,
          data: { upToSeq: session.lastSeq, reason: 'backfilled with --no-distill' },
        }));
        await engine.record(skipped);
        distillLine = `  distiller: ${waiting.length} backfilled sessions marked not to distill (--no-distill)\n`;
      }
    }
    await output.out(renderBackfillReport(tally, { dryRun: args.dryRun, claudeDir: engine.paths.claude }) + distillLine);
    return tally.unreadable.length > 0 ? 1 : 0;
  },
});

/** Sessions waiting for the distiller that the hooks never saw live: the backfilled ones, by session id. */
async function backfilledWaiting(engine: Engine): Promise<DistillSession[]> {
  const rows = engine.runner.rowsOf('distill');
  const live = engine.runner.rowsOf('live-sessions');
  const waiting: DistillSession[] = [];
  for await (const [key] of rows.entries(PENDING)) {
    const id = key.slice(PENDING.length);
    if ((await live.get(liveSessionKey(id))) !== undefined) continue;
    const session = (await rows.get(sessionKey(id))) as DistillSession | undefined;
    if (session && session.lastSeq > session.handledSeq) waiting.push(session);
  }
  return waiting;
}
