import * as z from 'zod/mini';
import { SubagentStopped } from '../events/hook-events.js';
import { runHook } from './run-hook.js';

void runHook({
  hook: 'SubagentStop',
  input: z.looseObject({ agent_transcript_path: z.optional(z.string()), agent_type: z.optional(z.string()) }),
  toEvent: (input) => ({
    definition: SubagentStopped,
    data: { agentType: input.agent_type?.slice(0, 200), agentTranscriptPath: input.agent_transcript_path },
  }),
});
