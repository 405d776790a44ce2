import { z } from 'zod';
import { sessionKey, type DistillSession } from '../../projections/distill/distill-queue.js';
import { episodeId } from '../../projections/memories/promotion-gate.js';
import { memoryKey } from '../../projections/memories/memories.js';
import type { MemoryRow } from '../../projections/memories/memory-row.js';
import { defineCommand } from './command.js';

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
    await engine.distillNow(args.session);
    const after = (await engine.runner.rowsOf('distill').get(sessionKey(args.session))) as DistillSession;
    if (after.lastFailure && after.handledSeq <= known.handledSeq) {
      output.err(`distilling ${args.session} failed: ${after.lastFailure.reason}: ${after.lastFailure.detail}\n`);
      return 1;
    }
    const episode = (await engine.runner.rowsOf('memories').get(memoryKey(episodeId(args.session)))) as MemoryRow | undefined;
    await output.out(`distilled ${args.session}${episode ? `: ${engine.paths.claude}/${episode.dir}/${episode.file}` : ''}\n`);
    return 0;
  },
});
