import * as z from 'zod/mini';
import { SubagentStopped } from '../events/hook-events.js';
import { hookMain, type HookSpec } from './run-hook.js';

const input = z.looseObject({ agent_transcript_path: z.optional(z.string()), agent_type: z.optional(z.string()) });

const spec: HookSpec<typeof input> = {
  hook: 'SubagentStop',
  input,
  toEvent: (input) => ({
    definition: SubagentStopped,
    data: { agentType: input.agent_type?.slice(0, 200), agentTranscriptPath: input.agent_transcript_path },
  }),
};

export const main = hookMain(spec);
