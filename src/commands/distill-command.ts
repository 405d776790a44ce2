import { z } from 'zod';
import { sessionKey, type DistillSession } from '../projections/distill/distill-queue.js';
import { episodeId } from '../projections/memories/promotion-gate.js';
import { memoryKey } from '../projections/memories/memories.js';
import { EngramError } from '../errors.js';
import type { Engine } from '../engine/engine.js';
import { distillerReactor } from '../reactors/distiller.js';
import { defineCommand } from './command.js';
import { committedRow } from '../projections/memories/memories-rows.js';

/** `engram distill --session ID`: distills one session now, whatever the distiller thought of it before. */
export const distillCommand = defineCommand({
  name: 'distill',
  access: 'write',
  args: z.object({ session: z.string().min(1) }),
  async run(engine, args, output) {
    const known = (await engine.runner.rowsOf('distill').get(sessionKey(args.session))) as DistillSession | undefined;
    if (!known) {
      output.err(`no session ${args.session} in the log\n`);
      return 1;
    }
    const headBefore = engine.log.head;
    const distiller = engine.services.distiller;
    if (!distiller) throw new EngramError('USAGE', 'no distiller is configured in this process');
    // Whatever its state: the reactor's own lane would skip a session it already handled.
    await engine.runner.catchUp();
    await engine.reactors.runOnce(distillerReactor(distiller.deps, { ...distiller.options, only: args.session }));
    await engine.runner.catchUp();
    const outcome = await latestOutcome(engine, args.session, headBefore + 1);
    const after = (await engine.runner.rowsOf('distill').get(sessionKey(args.session))) as DistillSession;
    if (after.lastFailure && after.handledSeq <= known.handledSeq) {
      output.err(`distilling ${args.session} failed: ${after.lastFailure.reason}: ${after.lastFailure.detail}\n`);
      return 1;
    }
    const episode = await committedRow(engine.runner.rowsOf('memories'), memoryKey(episodeId(args.session)));
    const where = episode ? `: ${engine.paths.claude}/${episode.dir}/${episode.file}` : '';
    if (outcome?.type === 'DistillSkipped') await output.out(`not distilled again: ${outcome.reason}${where}\n`);
    else if (outcome?.via === 'trace') {
      await output.out(`episode written from the trace alone (no LLM: \`engram config set llmCommand COMMAND\` or \`claude\` on the worker's PATH distils it)${where}\n`);
    } else await output.out(`distilled ${args.session} by the LLM${where}\n`);
    return 0;
  },
});

/** What the distiller recorded for the session from `from` on: its completion (and how) or its skip. */
async function latestOutcome(engine: Engine, session: string, from: number): Promise<{ type: 'DistillCompleted'; via: string } | { type: 'DistillSkipped'; reason: string } | undefined> {
  let found: Awaited<ReturnType<typeof latestOutcome>>;
  if (engine.log.head < from) return undefined;
  for await (const batch of engine.log.read({ from, to: engine.log.head })) {
    for (const stored of batch) {
      if (stored.session !== session || (stored.type !== 'DistillCompleted' && stored.type !== 'DistillSkipped')) continue;
      const event = engine.catalog.readStored(stored);
      if (event.type === 'DistillCompleted') found = { type: 'DistillCompleted', via: event.data.via };
      else if (event.type === 'DistillSkipped') found = { type: 'DistillSkipped', reason: event.data.reason };
    }
  }
  return found;
}
