import * as z from 'zod/mini';
import { SessionEnded } from '../events/hook-events.js';
import { hookMain, type HookSpec } from './run-hook.js';

const input = z.looseObject({ reason: z.optional(z.string()) });

const spec: HookSpec<typeof input> = {
  hook: 'SessionEnd',
  input,
  toEvent: (input) => ({
    definition: SessionEnded,
    data: { reason: (input.reason ?? 'other').slice(0, 40), transcriptPath: input.transcript_path },
  }),
};

export const main = hookMain(spec);
