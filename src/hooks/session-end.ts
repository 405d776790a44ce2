import * as z from 'zod/mini';
import { SessionEnded } from '../events/hook-events.js';
import { runHook } from './run-hook.js';

void runHook({
  hook: 'SessionEnd',
  input: z.looseObject({ reason: z.optional(z.string()) }),
  toEvent: (input) => ({
    definition: SessionEnded,
    data: { reason: (input.reason ?? 'other').slice(0, 40), transcriptPath: input.transcript_path },
  }),
});
