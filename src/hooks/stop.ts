import * as z from 'zod/mini';
import { ANSWER_CAP, TurnStopped } from '../events/hook-events.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { hookMain, type HookSpec } from './run-hook.js';

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

export const main = hookMain(spec);
