import * as z from 'zod/mini';
import { ANSWER_CAP, TurnStopped } from '../events/hook-events.js';
import { redactCapped } from '../redaction/redact-capped.js';
import type { HookHandoff } from './hook-handoff.js';
import { runHook, type HookSpec } from './run-hook.js';

const input = z.looseObject({
  stop_hook_active: z.optional(z.boolean()),
  last_assistant_message: z.optional(z.unknown()),
});

const spec: HookSpec<typeof input> = {
  hook: 'Stop',
  input,
  toEvent: (input) => {
    const answer = typeof input.last_assistant_message === 'string' ? input.last_assistant_message : '';
    return {
      definition: TurnStopped,
      data: {
        stopHookActive: input.stop_hook_active ?? false,
        answerChars: answer.length,
        // The transcript file is written after this hook runs: this is the answer's surest copy.
        answer: redactCapped(answer, ANSWER_CAP),
      },
      settled: ['answer'],
    };
  },
};

/**
 * Run by the hook's entry (run-hook-code.ts) once the bundle is loaded. `env` is for a test
 * that runs the built bundle in its own process (test/support/hook-here.ts).
 */
export function main(handoff?: HookHandoff, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runHook(spec, env, handoff);
}
