import * as z from 'zod/mini';
import { SubagentStopped } from '../events/hook-events.js';
import type { HookHandoff } from './hook-handoff.js';
import { runHook, type HookSpec } from './run-hook.js';

const input = z.looseObject({ agent_transcript_path: z.optional(z.string()), agent_type: z.optional(z.string()) });

const spec: HookSpec<typeof input> = {
  hook: 'SubagentStop',
  input,
  toEvent: (input) => ({
    definition: SubagentStopped,
    data: { agentType: input.agent_type?.slice(0, 200), agentTranscriptPath: input.agent_transcript_path },
  }),
};

/**
 * Run by the hook's entry (run-hook-code.ts) once the bundle is loaded. `env` is for a test
 * that runs the built bundle in its own process (test/support/hook-here.ts).
 */
export function main(handoff?: HookHandoff, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runHook(spec, env, handoff);
}
